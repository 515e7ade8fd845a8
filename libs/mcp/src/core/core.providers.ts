import type { Provider } from '@nestjs/common';
import { McpBaseHandlers } from './handlers/base.handlers.js';
import { McpCapabilities } from './mcp-capabilities.js';
import { McpClientInput } from './mcp-client-input.service.js';
import { McpClientRequests } from './client-requests.js';
import { McpListChangedNotifier } from './list-changed.notifier.js';
import { McpListChanges } from './list-changes.js';
import { McpDispatcher } from './mcp.dispatcher.js';

/** Core's providers: the dispatcher and its base handlers, the capabilities, list changes, requests to the client. */
export const MCP_CORE_PROVIDERS: Provider[] = [
  McpCapabilities,
  McpListChanges,
  McpListChangedNotifier,
  McpClientRequests,
  McpClientInput,
  McpBaseHandlers,
  McpDispatcher,
];
