import { bootErrors } from '../../core/errors/boot-errors.js';

/** The runtime resource registry's errors (`McpResourceRegistry.register/replace/remove`; codes in `docs/errors.md`). */
export const McpResourceRuntimeMessages = {
  ...bootErrors({
    notAnObject: {
      code: 'MCP_ERR_RESOURCE_REGISTER_NOT_OBJECT',
      message: (method: string) =>
        `McpResourceRegistry.${method}() needs a resource definition object ({ uri | uriTemplate, name, handler, ... }).`,
    },
    listChangedOff: {
      code: 'MCP_ERR_RESOURCE_LIST_CHANGED_OFF',
      message: (site: string) =>
        `${site}: the resources list changes at runtime, so clients must be told: set listChanged: { resources: true } in McpModule.forRoot().`,
    },
    uriOrTemplate: {
      code: 'MCP_ERR_RESOURCE_REGISTER_URI_OR_TEMPLATE',
      message: (site: string) =>
        `${site}: give exactly one of "uri" (a fixed resource, e.g. 'app://config') or "uriTemplate" (e.g. 'app://items/{id}').`,
    },
    uriLooksLikeTemplate: {
      code: 'MCP_ERR_RESOURCE_REGISTER_URI_IS_TEMPLATE',
      message: (site: string, uri: string) =>
        `${site}: uri "${uri.slice(0, 120)}" contains "{" or "}"; register it as { uriTemplate: '${uri.slice(0, 120)}', ... } for a parameterised resource.`,
    },
    missingHandler: {
      code: 'MCP_ERR_RESOURCE_REGISTER_HANDLER_MISSING',
      message: (site: string) => `${site}: "handler" must be a function (variables, context) => contents.`,
    },
    unknownKey: {
      code: 'MCP_ERR_RESOURCE_REGISTER_KEY_UNKNOWN',
      message: (site: string, key: string, closest: string | undefined) =>
        `${site}: "${key.slice(0, 60)}" is not a resource definition key${closest ? `; did you mean "${closest}"?` : ''}.`,
    },
    taken: {
      code: 'MCP_ERR_RESOURCE_TAKEN',
      message: (site: string, what: string, existing: string) =>
        `${site}: the ${what} is taken by ${existing}; choose another, or call replace() to swap a runtime resource.`,
    },
    notRegistered: {
      code: 'MCP_ERR_RESOURCE_NOT_REGISTERED',
      message: (site: string) => `${site}: no resource or template with that URI was registered at runtime; use register() to add it.`,
    },
    decorated: {
      code: 'MCP_ERR_RESOURCE_DECORATED',
      message: (site: string, existing: string) =>
        `${site}: it is declared by ${existing} with a decorator; only resources registered at runtime can be replaced or removed.`,
    },
  }),
  site: (method: string, key: unknown) => `McpResourceRegistry.${method}(${JSON.stringify(String(key)).slice(0, 120)})`,
} as const;
