import type { Provider } from '@nestjs/common';
import { McpRev20260728Responder } from './rev-2026-07-28.responder.js';
import { McpClientInput } from '../../core/mcp-client-input.service.js';
import { McpRequestStateCodec } from './mrtr/request-state.codec.js';
import { McpListenService } from './subscriptions/listen.service.js';
import { MCP_TASK_CHANNELS } from '../../features/tasks/task-channel.interface.js';
import { McpTaskStateStore } from './tasks/task-state.store.js';
import { McpTaskSupportRegistry } from './tasks/task-support.registry.js';
import { McpRev20260728TaskChannels } from './tasks/task-channels.js';
import { McpRev20260728TasksExtension } from './tasks/rev-2026-07-28.tasks-extension.js';

/** Everything the 2026-07-28 era adds to `McpModule` (transports reach it through the era router). */
export const MCP_REV_2026_07_28_PROVIDERS: Provider[] = [
  McpRequestStateCodec,
  McpClientInput,
  McpTaskSupportRegistry,
  McpTaskStateStore,
  McpRev20260728TaskChannels,
  // The worker runs queued tasks of this era with their input channel (tasks/update answers their questions).
  { provide: MCP_TASK_CHANNELS, useExisting: McpRev20260728TaskChannels },
  McpRev20260728TasksExtension,
  McpListenService,
  McpRev20260728Responder,
];
