import type { Provider } from '@nestjs/common';
import { McpRev20260728Server } from './rev-2026-07-28.server.js';
import { McpClientInput } from './mrtr/mcp-client-input.service.js';
import { McpRequestStateCodec } from './mrtr/request-state.codec.js';
import { McpLegacySessionTracker } from './subscriptions/legacy-session.tracker.js';
import { McpListenService } from './subscriptions/listen.service.js';
import { McpListChangedNotifier } from './subscriptions/mcp-list-changed.notifier.js';
import { McpTasksService } from '../../features/tasks/mcp-tasks.service.js';
import { McpTaskStateStore } from '../../features/tasks/task-state.store.js';
import { McpTaskSupportRegistry } from '../../features/tasks/task-support.registry.js';

/** Everything the 2026-07-28 era adds to `McpModule` (its transport adapters are listed with the transports). */
export const MCP_MODERN_PROVIDERS: Provider[] = [
  McpRequestStateCodec,
  McpClientInput,
  McpTaskSupportRegistry,
  McpTaskStateStore,
  McpTasksService,
  McpListenService,
  McpLegacySessionTracker,
  McpListChangedNotifier,
  McpRev20260728Server,
];
