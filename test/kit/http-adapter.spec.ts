import 'reflect-metadata';
import { Test } from '@nestjs/testing';
import { McpModule } from '../../libs/mcp/src/index.js';
import { bootMcp, closeMcpApps } from './boot-mcp.js';
import { createTestApp, HTTP_ADAPTER_ENV, httpAdapterName } from './http-adapter.js';

/** The switch that runs the e2e suite a second time on Fastify: a broken switch would test express twice in silence. */
describe('the specs HTTP adapter switch (MCP_TEST_HTTP_ADAPTER)', () => {
  const saved = process.env[HTTP_ADAPTER_ENV];
  afterEach(async () => {
    if (saved === undefined) delete process.env[HTTP_ADAPTER_ENV];
    else process.env[HTTP_ADAPTER_ENV] = saved;
    await closeMcpApps();
  });

  it('is express when unset, and what the variable names otherwise', () => {
    delete process.env[HTTP_ADAPTER_ENV];
    expect(httpAdapterName()).toBe('express');
    process.env[HTTP_ADAPTER_ENV] = 'fastify';
    expect(httpAdapterName()).toBe('fastify');
  });

  it('refuses a misspelt adapter instead of falling back to express', () => {
    process.env[HTTP_ADAPTER_ENV] = 'fastfy';
    expect(() => httpAdapterName()).toThrow('MCP_TEST_HTTP_ADAPTER=fastfy is not an HTTP adapter; use express or fastify');
  });

  it.each(['express', 'fastify'] as const)('createTestApp and bootMcp build the app on %s', async (adapter) => {
    process.env[HTTP_ADAPTER_ENV] = adapter;
    const moduleRef = await Test.createTestingModule({ imports: [McpModule.forRoot({ name: 'switch', version: '1.0.0' })] }).compile();
    const app = createTestApp(moduleRef, { logger: false });
    try {
      expect(app.getHttpAdapter().getType()).toBe(adapter);
    } finally {
      await app.close();
    }
    expect((await bootMcp()).getHttpAdapter().getType()).toBe(adapter);
  });

  it('an explicit adapter wins over the variable', async () => {
    process.env[HTTP_ADAPTER_ENV] = 'fastify';
    const moduleRef = await Test.createTestingModule({ imports: [McpModule.forRoot({ name: 'switch', version: '1.0.0' })] }).compile();
    const app = createTestApp(moduleRef, { logger: false }, 'express');
    try {
      expect(app.getHttpAdapter().getType()).toBe('express');
    } finally {
      await app.close();
    }
  });
});
