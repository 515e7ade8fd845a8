// Connects to the packed app with the official SDK client, as a user's MCP client would; then calls a tool
// in-process with McpTestClient from the `@nest-mcp/core/testing` subpath, as a user's jest spec would.
// Usage: node src/check.mjs http://127.0.0.1:PORT/mcp
import assert from 'node:assert/strict';
import { NestFactory } from '@nestjs/core';
import { McpTestClient } from '@nest-mcp/core/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const url = process.argv[2];
assert.ok(url, 'usage: node src/check.mjs <endpoint URL>');

const client = new Client({ name: 'pack-check', version: '1.0.0' });
await client.connect(new StreamableHTTPClientTransport(new URL(url)));
try {
  const { tools } = await client.listTools();
  const greet = tools.find((tool) => tool.name === 'greet');
  assert.ok(greet, `tools/list has no "greet": ${JSON.stringify(tools.map((tool) => tool.name))}`);
  assert.equal(greet.description, 'Greets someone by name');
  // The schema comes from the DTO's class-validator metadata: proves the app and the package share one
  // class-validator (a duplicated copy would yield an empty schema).
  assert.deepEqual(greet.inputSchema.required, ['name']);
  assert.equal(greet.inputSchema.properties.name.type, 'string');
  assert.equal(greet.inputSchema.properties.name.minLength, 1);
  assert.equal(greet.inputSchema.properties.name.maxLength, 50);

  const ok = await client.callTool({ name: 'greet', arguments: { name: 'pack' } });
  assert.notEqual(ok.isError, true, `greet failed: ${JSON.stringify(ok)}`);
  assert.deepEqual(ok.structuredContent, { status: 'success', data: { greeting: 'Hello, pack!' } });
  assert.deepEqual(JSON.parse(ok.content[0].text), ok.structuredContent);

  const bad = await client.callTool({ name: 'greet', arguments: { name: '' } });
  assert.equal(bad.isError, true, `an empty name was accepted: ${JSON.stringify(bad)}`);
  assert.equal(bad.structuredContent.status, 'error');
  assert.equal(bad.structuredContent.error.code, 'VALIDATION_ERROR');
  assert.deepEqual(bad.structuredContent.error.fields, ['name']);

  console.log(`check: tools/list has greet; greet({name:"pack"}) → ${ok.content[0].text}; greet({name:""}) → VALIDATION_ERROR`);
} finally {
  await client.close();
}

const { PingModule, PING_CALLER } = await import('../dist/in-memory.js');
const app = await NestFactory.create(PingModule, { logger: false });
try {
  const tester = await McpTestClient.create(app, PING_CALLER);
  const { result, envelope } = await tester.callTool('ping');
  assert.deepEqual(envelope, { status: 'success', data: { pong: true } }, `ping failed: ${JSON.stringify(result)}`);
  await tester.close();
  console.log(`check: McpTestClient (@nest-mcp/core/testing) ping() → ${JSON.stringify(envelope)}`);
} finally {
  await app.close();
}
