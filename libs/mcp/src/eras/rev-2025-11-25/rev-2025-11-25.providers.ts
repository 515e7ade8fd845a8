import type { Provider } from '@nestjs/common';
import { McpRev20251125Engine } from './rev-2025-11-25.engine.js';
import { McpRev20251125SessionTracker } from './rev-2025-11-25-sessions.tracker.js';

/** The session era's engine (2024-11-05 … 2025-11-25) and the sessions it has seen (for list changes). */
export const MCP_REV_2025_11_25_PROVIDERS: Provider[] = [McpRev20251125SessionTracker, McpRev20251125Engine];
