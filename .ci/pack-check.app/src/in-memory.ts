// What src/check.mjs calls in-process through `@nest-mcp/core/testing` (no socket). Compiled with the README's
// tsconfig, so the subpath's declarations must resolve through the package's `exports` too.
import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { McpModule, McpTool } from '@nest-mcp/core';
import type { McpTestClientOptions } from '@nest-mcp/core/testing';

@Injectable()
class PingTools {
  @McpTool({ description: 'Answers pong', scopes: ['ping'] })
  ping() {
    return { pong: true };
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'in-memory', version: '1.0.0' })], providers: [PingTools] })
export class PingModule {}

/** The caller of the in-process check: it holds the tool's scope. */
export const PING_CALLER: McpTestClientOptions = { principal: { subject: 'pack-check', scopes: ['ping'] } };
