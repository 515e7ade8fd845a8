import { SetMetadata } from '@nestjs/common';
import { MCP_RESOURCE_METADATA, MCP_RESOURCE_TEMPLATE_METADATA } from '../../core/mcp.constants.js';
import type { McpResourceOptions, McpResourceTemplateOptions } from './mcp-resource-options.interface.js';
import { McpArgs } from '../tools/mcp-param.decorators.js';

/**
 * Exposes a provider method as a fixed MCP resource, listed by `resources/list` and read by `resources/read`.
 * The method returns a string (text), a `Buffer` / `Uint8Array` (sent base64 as `blob`), or
 * `{ contents: [...] }`; it receives `({}, context)` (see {@link McpResourceContext}).
 * @publicApi
 * @example
 * @McpResource({ uri: 'app://config', name: 'config', mimeType: 'application/json' })
 * readConfig() { return JSON.stringify(this.config); }
 */
export const McpResource = (options: McpResourceOptions): MethodDecorator => SetMetadata(MCP_RESOURCE_METADATA, options);

/**
 * Exposes a provider method as a family of resources whose URIs match an RFC 6570 level-1 template: `{id}`
 * matches one path segment, `{+path}` anything including `/`. The method receives the URI-decoded variables
 * first (or through `@McpResourceParams()`) and the context second (or through `@McpContext()`).
 * @publicApi
 * @example
 * @McpResourceTemplate({ uriTemplate: 'app://users/{id}/profile', name: 'user-profile', mimeType: 'application/json' })
 * readProfile(@McpResourceParams() params: { id: string }) { return JSON.stringify(this.users.find(params.id)); }
 */
export const McpResourceTemplate = (options: McpResourceTemplateOptions): MethodDecorator =>
  SetMetadata(MCP_RESOURCE_TEMPLATE_METADATA, options);

/** Injects the variables a resource template matched, URI-decoded (`{ id: '123' }`); `{}` for a fixed resource. @publicApi */
export const McpResourceParams = (): ParameterDecorator => McpArgs();
