import { MCP_PARAMS_METADATA } from '../../core/mcp.constants.js';
import { McpParamType } from '../../execution/mcp-params.factory.js';

/** Records `{ index }` under `type:index`, the layout ExternalContextCreator reads (as for route params). */
function mcpParam(type: McpParamType): ParameterDecorator {
  return (target, propertyKey, index) => {
    if (propertyKey === undefined) return;
    const existing = (Reflect.getMetadata(MCP_PARAMS_METADATA, target.constructor, propertyKey) ?? {}) as Record<string, unknown>;
    Reflect.defineMetadata(
      MCP_PARAMS_METADATA,
      { ...existing, [`${type}:${index}`]: { index, data: undefined, pipes: [] } },
      target.constructor,
      propertyKey,
    );
  };
}

/**
 * Injects the tool's validated arguments: an instance of the parameter's DTO class, whose class-validator
 * decorators also generate the tool's `inputSchema`.
 * @publicApi
 */
export const McpArgs = (): ParameterDecorator => mcpParam(McpParamType.ARGS);

/** Injects the call's {@link McpToolContext}: request id, session, principal, tenant, AbortSignal, progress and logging. @publicApi */
export const McpContext = (): ParameterDecorator => mcpParam(McpParamType.CONTEXT);

/** Injects the authenticated principal (undefined without authentication). @publicApi */
export const McpPrincipalParam = (): ParameterDecorator => mcpParam(McpParamType.PRINCIPAL);

/** Injects the caller's tenant id (`default` without authentication). @publicApi */
export const McpTenant = (): ParameterDecorator => mcpParam(McpParamType.TENANT);

/** The parameter index that carries `type`, if any, for a method's recorded params. */
export function findParamIndex(metadata: Record<string, { index: number }> | undefined, type: McpParamType): number | undefined {
  return Object.entries(metadata ?? {}).find(([key]) => key.startsWith(`${type}:`))?.[1].index;
}
