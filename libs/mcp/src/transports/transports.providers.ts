import type { Provider } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { MCP_SESSION_STREAMS } from '../core/session-streams.interface.js';
import { McpAuthGuard } from './http/auth/mcp-auth.guard.js';
import { McpOAuthBridgeFastifyForms } from './http/auth/oauth-bridge.fastify-forms.js';
import { McpBodyParserErrorFilter } from './http/body-parser-error.filter.js';
import { McpFastifyEarlyChecks } from './http/fastify-early-checks.js';
import { McpIdleConnectionsCloser } from './http/idle-connections.closer.js';
import { McpHttpTransport } from './http/mcp-http.transport.js';
import { McpOriginGuard } from './http/origin.guard.js';
import { McpInstanceRouter } from './routing/mcp-instance.router.js';
import { McpHttpSseTransport } from './sse/http-sse.transport.js';
import { McpStdioTransport } from './stdio/stdio.transport.js';
import { SseEventStore } from './streams/sse-event.store.js';
import { McpStreamHub } from './streams/stream-hub.js';

/** The transports (their controllers come from `McpModule.withEndpoints`), their streams, guards and adapter hooks. */
export const MCP_TRANSPORT_PROVIDERS: Provider[] = [
  // Streams: features and eras reach session streams through the core port, never the hub itself.
  SseEventStore,
  McpStreamHub,
  { provide: MCP_SESSION_STREAMS, useExisting: McpStreamHub },
  McpInstanceRouter,
  // HTTP guards, and the hooks put on a Fastify adapter at bootstrap (before the app listens).
  McpAuthGuard,
  McpOriginGuard,
  McpFastifyEarlyChecks,
  McpOAuthBridgeFastifyForms,
  McpIdleConnectionsCloser,
  { provide: APP_FILTER, useClass: McpBodyParserErrorFilter },
  // The transports.
  McpHttpTransport,
  McpHttpSseTransport,
  McpStdioTransport,
];
