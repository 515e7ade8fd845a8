import 'reflect-metadata';
import { Test, type TestingModule } from '@nestjs/testing';
import { McpModule } from '@nest-mcp/core';
import { McpTestClient } from '@nest-mcp/core/testing';
import { AlertStore } from '../alerts/alert.store.js';
import { AlertsModule } from '../alerts/alerts.module.js';
import { MemoryAlertStore } from '../alerts/memory-alert.store.js';
import { mcpOptionsFromEnv } from '../config/mcp-options.from-env.js';
import { WeatherModule } from './weather.module.js';

/** The weather server's tools as its MCP clients see them, in-process (no socket), with the server's own options. */
describe('weather tools (McpTestClient)', () => {
  let moduleRef: TestingModule;
  let reader: McpTestClient;

  beforeAll(async () => {
    moduleRef = await Test.createTestingModule({
      imports: [McpModule.forRoot(mcpOptionsFromEnv({ MCP_API_KEYS: `${'k'.repeat(32)}|acme` })), WeatherModule, AlertsModule],
    })
      .overrideProvider(AlertStore)
      .useValue(new MemoryAlertStore())
      .setLogger({ log() {}, error() {}, warn() {}, debug() {}, verbose() {}, fatal() {} })
      .compile();
    reader = await McpTestClient.create(moduleRef, { principal: { subject: 'reader', tenant: 'acme', scopes: ['weather:read'] } });
  });
  afterAll(async () => {
    await reader.close();
    await moduleRef.close();
  });

  it('get_weather answers a success envelope for a known city, in the unit asked', async () => {
    const { result, envelope } = await reader.callTool('get_weather', { city: '北京', unit: 'fahrenheit' });
    expect(result.isError).toBe(false);
    expect(envelope).toMatchObject({
      status: 'success',
      data: { city: { name: 'Beijing', nameZh: '北京' }, unit: 'fahrenheit', date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) },
    });
  });

  it('get_weather answers CITY_NOT_FOUND (not retryable) for an unknown city', async () => {
    const { result, envelope } = await reader.callTool('get_weather', { city: 'Atlantis' });
    expect(result.isError).toBe(true);
    expect(envelope).toMatchObject({ status: 'error', error: { code: 'CITY_NOT_FOUND', retryable: false } });
  });

  it('a read-only principal neither sees nor may call create_weather_alert (FORBIDDEN)', async () => {
    expect((await reader.listTools()).map((tool) => tool.name)).not.toContain('create_weather_alert');
    const { envelope } = await reader.callTool('create_weather_alert', {
      city: 'Paris',
      threshold_celsius: 30,
      priority: 'high',
      idempotency_key: 'spec-key-0000000001',
    });
    expect(envelope).toMatchObject({ status: 'error', error: { code: 'FORBIDDEN', retryable: false } });
    expect(envelope?.status === 'error' && envelope.error.message).toContain('weather:write');
  });

  it('a writer creates the alert', async () => {
    const writer = await McpTestClient.create(moduleRef, { principal: { subject: 'writer', tenant: 'acme', scopes: ['weather:write'] } });
    try {
      const { envelope } = await writer.callTool('create_weather_alert', {
        city: 'Paris',
        threshold_celsius: 30,
        priority: 'high',
        idempotency_key: 'spec-key-0000000002',
      });
      expect(envelope).toMatchObject({ status: 'success', data: { city: 'Paris', threshold_celsius: 30, priority: 'high' } });
    } finally {
      await writer.close();
    }
  });
});
