import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { assertKnownKeys, assertRegistrationObject } from '../components/runtime-registration.checks.js';
import type { McpFeatureHandler } from '../feature-handler.js';
import type { McpResourceContext } from './mcp-resource-context.interface.js';
import type { McpResourceDefinition, McpResourceTemplateDefinition } from './mcp-resource-definition.interface.js';
import type {
  McpFixedResourceRegistration,
  McpResourceHandlerFunction,
  McpResourceRegistration,
  McpResourceTemplateRegistration,
} from './mcp-resource-registration.interface.js';
import { McpResourceRuntimeMessages as Messages } from './mcp-resource-runtime.messages.js';
import { fixedResourceDescriptor, resourceTemplateDescriptor } from './resource-descriptors.js';

const FIXED_KEYS = ['uri', 'name', 'title', 'description', 'mimeType', 'size', 'annotations', 'handler'] as const;
const TEMPLATE_KEYS = ['uriTemplate', 'name', 'title', 'description', 'mimeType', 'annotations', 'handler'] as const;

/** A runtime resource, built: a fixed resource or a template, flagged `runtime`. */
export type McpRuntimeResource =
  { kind: 'resource'; definition: McpResourceDefinition } | { kind: 'template'; definition: McpResourceTemplateDefinition };

/**
 * Builds a runtime resource or template with the checks of `@McpResource()` / `@McpResourceTemplate()` (the
 * explorer's, shared through `resource-descriptors.ts`), so a bad definition throws the same
 * `McpConfigurationError`, naming `McpResourceRegistry.<method>("<uri>")`.
 */
export function buildRuntimeResource(method: string, registration: McpResourceRegistration): McpRuntimeResource {
  assertRegistrationObject(Messages, method, registration);
  const fixed = 'uri' in registration && registration.uri !== undefined;
  const templated = 'uriTemplate' in registration && registration.uriTemplate !== undefined;
  const key = fixed ? (registration as McpFixedResourceRegistration).uri : (registration as McpResourceTemplateRegistration).uriTemplate;
  const site = Messages.site(method, key);
  if (fixed === templated) throw new McpConfigurationError(Messages.uriOrTemplate(site));
  const keys = fixed ? FIXED_KEYS : TEMPLATE_KEYS;
  assertKnownKeys(Messages, site, registration, keys);
  if (typeof registration.handler !== 'function') throw new McpConfigurationError(Messages.missingHandler(site));
  const handler = runtimeHandler(registration.handler);
  if (fixed) {
    const { uri } = registration as McpFixedResourceRegistration;
    if (typeof uri === 'string' && /[{}]/.test(uri)) throw new McpConfigurationError(Messages.uriLooksLikeTemplate(site, uri));
    const descriptor = fixedResourceDescriptor(site, 'McpResourceRegistry.register()', registration as McpFixedResourceRegistration);
    return { kind: 'resource', definition: { uri: descriptor.uri, site, descriptor, handler, runtime: true } };
  }
  const { matcher, descriptor } = resourceTemplateDescriptor(
    site,
    'McpResourceRegistry.register()',
    registration as McpResourceTemplateRegistration,
  );
  return { kind: 'template', definition: { uriTemplate: descriptor.uriTemplate, site, matcher, descriptor, handler, runtime: true } };
}

function runtimeHandler(handler: McpResourceHandlerFunction): McpFeatureHandler<McpResourceContext> {
  return async (payload, context) => handler((payload ?? {}) as Record<string, string>, context);
}
