/** Metadata keys and injection tokens, namespaced with `mcp:` so they never collide with other libraries. */

/** Options recorded by `@McpTool()` on a method. */
export const MCP_TOOL_METADATA = 'mcp:tool';
/** Parameter bindings recorded by `@McpArgs()` / `@McpContext()` (read through ExternalContextCreator). */
export const MCP_PARAMS_METADATA = 'mcp:params';
/** Per-property schema hints recorded by `@McpProperty()`. */
export const MCP_PROPERTY_METADATA = 'mcp:property';
/** Class-level schema options recorded by `@McpDto()`. */
export const MCP_DTO_METADATA = 'mcp:dto';

/** The context type ExternalContextCreator reports to guards and interceptors (`context.getType() === 'mcp'`). */
export const MCP_CONTEXT_TYPE = 'mcp';

/** Metadata key used by `@nestjs/swagger`'s `@ApiProperty` (read when present; we never depend on swagger). */
export const SWAGGER_API_MODEL_PROPERTIES = 'swagger/apiModelProperties';

/** Options recorded by `@McpResource()` on a method. */
export const MCP_RESOURCE_METADATA = 'mcp:resource';
/** Options recorded by `@McpResourceTemplate()` on a method. */
export const MCP_RESOURCE_TEMPLATE_METADATA = 'mcp:resource-template';
/** Options recorded by `@McpPrompt()` on a method. */
export const MCP_PROMPT_METADATA = 'mcp:prompt';
/** The list of `@McpCompletion()` options recorded on a method (one method may complete several arguments). */
export const MCP_COMPLETION_METADATA = 'mcp:completion';

/** Options recorded by `@McpRoute()` on a controller handler or a controller class. */
export const MCP_ROUTE_METADATA = 'mcp:route';
/** Set by `@McpExcludeRoute()`: a handler of a route-tool controller that is not a tool. */
export const MCP_ROUTE_EXCLUDE_METADATA = 'mcp:route-exclude';

/** Metadata keys of `@nestjs/swagger` read for route tools (by string: swagger stays optional). */
export const SWAGGER_API_OPERATION = 'swagger/apiOperation';
export const SWAGGER_API_PARAMETERS = 'swagger/apiParameters';
/** `@ApiExcludeController()`'s key: the library's own HTTP controllers stay out of the app's OpenAPI document. */
export const SWAGGER_API_EXCLUDE_CONTROLLER = 'swagger/apiExcludeController';
