import type { Provider } from '@nestjs/common';
import { McpEraRouter } from './mcp-era.router.js';
import { McpListChangedAnnouncer } from './list-changed.announcer.js';
import { McpRev20251125Engine } from './rev-2025-11-25/rev-2025-11-25.engine.js';
import { McpRev20251125SessionTracker } from './rev-2025-11-25/rev-2025-11-25-sessions.tracker.js';
import { McpRev20251125TaskHandlers } from './rev-2025-11-25/tasks/rev-2025-11-25.tasks.handlers.js';
import { McpRev20260728Engine } from './rev-2026-07-28/rev-2026-07-28.engine.js';
import { MCP_REV_2026_07_28_PROVIDERS } from './rev-2026-07-28/rev-2026-07-28.providers.js';

/** Both eras' engines with their own handlers, the router above them, and what serves both (list-change announcements). */
export const MCP_ERA_PROVIDERS: Provider[] = [
  McpRev20251125SessionTracker,
  McpRev20251125Engine,
  McpRev20251125TaskHandlers,
  ...MCP_REV_2026_07_28_PROVIDERS,
  McpRev20260728Engine,
  McpListChangedAnnouncer,
  McpEraRouter,
];
