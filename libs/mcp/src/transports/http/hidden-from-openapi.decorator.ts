import { SetMetadata } from '@nestjs/common';
import { SWAGGER_API_EXCLUDE_CONTROLLER } from '../../core/mcp.constants.js';

/**
 * `@nestjs/swagger`'s `@ApiExcludeController()`, written by its metadata key so swagger stays optional: the MCP
 * endpoints are no REST API, so an app's OpenAPI document (and any tools made from it) must not list them.
 */
export const HiddenFromOpenApi = (): ClassDecorator => SetMetadata(SWAGGER_API_EXCLUDE_CONTROLLER, [true]);
