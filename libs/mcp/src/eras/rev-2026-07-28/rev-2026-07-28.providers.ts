import type { Provider } from '@nestjs/common';
import { McpModernServer } from './rev-2026-07-28.server.js';
import { McpClientInput } from './mrtr/mcp-client-input.service.js';
import { McpRequestStateCodec } from './mrtr/request-state.codec.js';
import { McpLegacySessionTracker } from './subscriptions/legacy-session.tracker.js';
import { McpListenService } from './subscriptions/listen.service.js';
import { McpListChangedNotifier } from './subscriptions/mcp-list-changed.notifier.js';
import { McpModernTasks } from '../../features/tasks/mcp-modern-tasks.service.js';
import { McpTaskStateStore } from '../../features/tasks/task-state.store.js';
import { McpTaskSupportRegistry } from '../../features/tasks/task-support.registry.js';
import { McpModernHttpHandler } from './http.handler.js';
import { McpModernStdioHandler } from './stdio.handler.js';

/** Everything the 2026-07-28 era adds to `McpModule`. */
export const MCP_MODERN_PROVIDERS: Provider[] = [
  McpRequestStateCodec,
  McpClientInput,
  McpTaskSupportRegistry,
  McpTaskStateStore,
  McpModernTasks,
  McpListenService,
  McpLegacySessionTracker,
  McpListChangedNotifier,
  McpModernServer,
  McpModernHttpHandler,
  McpModernStdioHandler,
];
