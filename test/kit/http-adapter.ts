/**
 * The HTTP adapter every spec boots its Nest app on (not built, not exported). `MCP_TEST_HTTP_ADAPTER=fastify`
 * (set by jest's "fastify" project, test/kit/fastify-project.setup.ts) runs the same specs on
 * `@nestjs/platform-fastify`; unset, they run on express as Nest does by default.
 */
import type { INestApplication, NestApplicationOptions } from '@nestjs/common';
import type { TestingModule } from '@nestjs/testing';
import { FastifyAdapter } from '@nestjs/platform-fastify';

/** The two Nest HTTP adapters the library supports. */
export type HttpAdapterName = 'express' | 'fastify';

/** The variable that picks the adapter of a test run. */
export const HTTP_ADAPTER_ENV = 'MCP_TEST_HTTP_ADAPTER';

const ADAPTERS: readonly HttpAdapterName[] = ['express', 'fastify'];

/** The adapter of this test run: `MCP_TEST_HTTP_ADAPTER` (express when unset); a typo fails loudly rather than testing express twice. */
export function httpAdapterName(): HttpAdapterName {
  const value = process.env[HTTP_ADAPTER_ENV] || 'express';
  if (!(ADAPTERS as readonly string[]).includes(value)) {
    throw new Error(`${HTTP_ADAPTER_ENV}=${value} is not an HTTP adapter; use ${ADAPTERS.join(' or ')}`);
  }
  return value as HttpAdapterName;
}

/**
 * `moduleRef.createNestApplication(options)` on `adapter` (default {@link httpAdapterName}). Nest reads `bodyParser`
 * and `forceCloseConnections` from these options on both adapters, so the options mean the same on each.
 */
export function createTestApp(
  moduleRef: TestingModule,
  options: NestApplicationOptions = {},
  adapter: HttpAdapterName = httpAdapterName(),
): INestApplication {
  return adapter === 'fastify' ? moduleRef.createNestApplication(new FastifyAdapter(), options) : moduleRef.createNestApplication(options);
}
