import { Injectable } from '@nestjs/common';
import { McpResource, McpResourceParams, McpResourceTemplate } from '@nest-mcp/core';
import { PNG_BASE64 } from '../media.samples.js';

/** The resources the conformance suite reads and subscribes to. */
@Injectable()
export class FixtureResources {
  @McpResource({ uri: 'test://static-text', name: 'static-text', description: 'A static text resource', mimeType: 'text/plain' })
  staticText(): string {
    return 'This is the content of the static text resource.';
  }

  @McpResource({
    uri: 'test://static-binary',
    name: 'static-binary',
    description: 'A static binary resource (a PNG image)',
    mimeType: 'image/png',
  })
  staticBinary(): Buffer {
    return Buffer.from(PNG_BASE64, 'base64');
  }

  @McpResource({
    uri: 'test://watched-resource',
    name: 'watched-resource',
    description: 'A resource clients can subscribe to',
    mimeType: 'text/plain',
  })
  watched(): string {
    return 'Watched resource content.';
  }

  @McpResourceTemplate({
    uriTemplate: 'test://template/{id}/data',
    name: 'template-data',
    description: 'Data for an id, from a URI template',
    mimeType: 'application/json',
  })
  templateData(@McpResourceParams() params: { id: string }): string {
    return JSON.stringify({ id: params.id, templateTest: true, data: `Data for ID: ${params.id}` });
  }
}
