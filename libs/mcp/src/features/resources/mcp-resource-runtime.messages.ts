import { bootErrors } from '../../core/errors/boot-errors.js';
import { runtimeRegistrationErrors } from '../components/runtime-registration.messages.js';

/** The runtime resource registry's errors (`McpResourceRegistry.register/replace/remove`; codes in `docs/errors.md`). */
export const McpResourceRuntimeMessages = {
  ...runtimeRegistrationErrors({
    area: 'RESOURCE',
    noun: 'resource',
    registry: 'McpResourceRegistry',
    shape: '{ uri | uriTemplate, name, handler, ... }',
    handler: '(variables, context) => contents',
    lookup: 'resource or template with that URI',
    declared: (existing) => `it is declared by ${existing} with a decorator`,
    siteChars: 120,
    taken: 'TAKEN',
  }),
  ...bootErrors({
    uriOrTemplate: {
      code: 'MCP_ERR_RESOURCE_REGISTER_URI_OR_TEMPLATE',
      message: (site: string) =>
        `${site}: give exactly one of "uri" (a fixed resource, e.g. 'app://config') or "uriTemplate" (e.g. 'app://items/{id}').`,
      fix: 'Give `uri` or `uriTemplate`, not both.',
    },
    uriLooksLikeTemplate: {
      code: 'MCP_ERR_RESOURCE_REGISTER_URI_IS_TEMPLATE',
      message: (site: string, uri: string) =>
        `${site}: uri "${uri.slice(0, 120)}" contains "{" or "}"; register it as { uriTemplate: '${uri.slice(0, 120)}', ... } for a parameterised resource.`,
      fix: 'Register it with `uriTemplate`.',
    },
  }),
} as const;
