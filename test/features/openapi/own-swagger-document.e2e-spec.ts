import { Body, Controller, Module, Post } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { ApiOperation, ApiProperty, DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { INestApplication } from '@nestjs/common';
import { McpModule } from '@nest-mcp/core';
import { createTestApp } from '../../kit/http-adapter.js';
import { freePort } from '../../kit/redis-server.harness.js';

/**
 * The app's own SwaggerModule document as an OpenAPI source: created in "main.ts" before listen(), handed over as a
 * function the library calls at boot; the tools call the app itself over HTTP.
 */

class NoteDto {
  @ApiProperty({ description: 'What to remember', minLength: 1 })
  text!: string;
}

@Controller('notes')
class NotesController {
  @ApiOperation({ operationId: 'addNote', summary: 'Remember a note' })
  @Post()
  add(@Body() dto: NoteDto): { saved: string } {
    return { saved: dto.text };
  }
}

describe("OpenAPI tools from the app's own SwaggerModule document", () => {
  let app: INestApplication;
  let client: Client;

  beforeAll(async () => {
    const port = await freePort();
    const swagger: { document?: OpenAPIObject } = {};
    @Module({
      imports: [
        McpModule.forRoot({
          name: 'self',
          version: '1.0.0',
          sources: { openapi: [{ document: () => ({ ...swagger.document! }), baseUrl: `http://127.0.0.1:${port}` }] },
        }),
      ],
      controllers: [NotesController],
    })
    class SelfModule {}
    const moduleRef = await Test.createTestingModule({ imports: [SelfModule] }).compile();
    app = createTestApp(moduleRef, { logger: false, forceCloseConnections: true });
    swagger.document = SwaggerModule.createDocument(app, new DocumentBuilder().setTitle('Self').setVersion('1.0.0').build());
    await app.listen(port, '127.0.0.1');
    client = new Client({ name: 'self-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
  });

  afterAll(async () => {
    await client?.close();
    await app?.close();
  });

  it('serves its own operations as tools and calls them over HTTP', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['add_note']);
    expect(tools[0]).toMatchObject({
      description: 'Remember a note',
      inputSchema: { type: 'object', properties: { text: { type: 'string', minLength: 1 } }, required: ['text'] },
    });
    const result = await client.callTool({ name: 'add_note', arguments: { text: 'milk' } });
    expect(result.structuredContent).toEqual({ status: 'success', data: { saved: 'milk' } });
  });
});
