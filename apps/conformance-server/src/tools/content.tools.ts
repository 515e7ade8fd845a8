import { Injectable } from '@nestjs/common';
import { McpContent, McpResult, McpTool, McpToolError } from '@nest-mcp/core';
import { PNG_BASE64, WAV_BASE64 } from '../media.samples.js';

/** Tools that answer with each kind of MCP content (the conformance suite's `tools-call-*` scenarios). */
@Injectable()
export class ContentTools {
  @McpTool({ name: 'test_simple_text', description: 'Returns a simple text response' })
  simpleText() {
    return McpResult.raw({ content: [McpContent.text('This is a simple text response for testing.')] });
  }

  @McpTool({ name: 'test_image_content', description: 'Returns an image (PNG)' })
  image() {
    return McpResult.raw({ content: [McpContent.image(PNG_BASE64, 'image/png')] });
  }

  @McpTool({ name: 'test_audio_content', description: 'Returns audio (WAV)' })
  audio() {
    return McpResult.raw({ content: [McpContent.audio(WAV_BASE64, 'audio/wav')] });
  }

  @McpTool({ name: 'test_embedded_resource', description: 'Returns an embedded text resource' })
  embeddedResource() {
    return McpResult.raw({
      content: [
        McpContent.resource({ uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' }),
      ],
    });
  }

  @McpTool({ name: 'test_multiple_content_types', description: 'Returns text, an image and an embedded resource' })
  mixed() {
    return McpResult.raw({
      content: [
        McpContent.text('Multiple content types test:'),
        McpContent.image(PNG_BASE64, 'image/png'),
        McpContent.resource({
          uri: 'test://mixed-content-resource',
          mimeType: 'application/json',
          text: JSON.stringify({ test: 'data', value: 123 }),
        }),
      ],
    });
  }

  @McpTool({ name: 'test_error_handling', description: 'Always fails: returns an isError result' })
  failing(): never {
    throw new McpToolError('TEST_ERROR', 'This tool intentionally returns an error for testing');
  }

  @McpTool({
    name: 'json_schema_2020_12_tool',
    description: 'Declares a hand-written JSON Schema 2020-12 input schema ($schema, $defs, $ref)',
    inputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: {
        address: { $anchor: 'addressDef', type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } },
      },
      properties: {
        name: { type: 'string' },
        address: { $ref: '#/$defs/address' },
        contactMethod: { type: 'string', enum: ['phone', 'email'] },
        phone: { type: 'string' },
        email: { type: 'string' },
      },
      allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
      if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
      then: { required: ['phone'] },
      else: { required: ['email'] },
      additionalProperties: false,
    },
  })
  jsonSchema2020(args: Record<string, unknown>) {
    return McpResult.raw({ content: [McpContent.text(`Received: ${JSON.stringify(args)}`)] });
  }
}
