/** Texts of the runtime resource registry's errors (`McpResourceRegistry.register/replace/remove`). */
export const McpResourceRuntimeMessages = {
  notAnObject: (method: string) =>
    `McpResourceRegistry.${method}() needs a resource definition object ({ uri | uriTemplate, name, handler, ... }).`,
  site: (method: string, key: unknown) => `McpResourceRegistry.${method}(${JSON.stringify(String(key)).slice(0, 120)})`,
  listChangedOff: (site: string) =>
    `${site}: the resources list changes at runtime, so clients must be told: set listChanged: { resources: true } in McpModule.forRoot().`,
  uriOrTemplate: (site: string) =>
    `${site}: give exactly one of "uri" (a fixed resource, e.g. 'app://config') or "uriTemplate" (e.g. 'app://items/{id}').`,
  uriLooksLikeTemplate: (site: string, uri: string) =>
    `${site}: uri "${uri.slice(0, 120)}" contains "{" or "}"; register it as { uriTemplate: '${uri.slice(0, 120)}', ... } for a parameterised resource.`,
  missingHandler: (site: string) => `${site}: "handler" must be a function (variables, context) => contents.`,
  unknownKey: (site: string, key: string, closest: string | undefined) =>
    `${site}: "${key.slice(0, 60)}" is not a resource definition key${closest ? `; did you mean "${closest}"?` : ''}.`,
  taken: (site: string, what: string, existing: string) =>
    `${site}: the ${what} is taken by ${existing}; choose another, or call replace() to swap a runtime resource.`,
  notRegistered: (site: string) => `${site}: no resource or template with that URI was registered at runtime; use register() to add it.`,
  decorated: (site: string, existing: string) =>
    `${site}: it is declared by ${existing} with a decorator; only resources registered at runtime can be replaced or removed.`,
} as const;
