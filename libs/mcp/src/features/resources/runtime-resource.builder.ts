import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import type { McpComponent } from '../components/mcp-component-provider.interface.js';
import type { McpRuntimeBuilder } from '../components/runtime-registrations.js';
import type { McpFeatureHandler } from '../feature-handler.js';
import type { McpResourceContext } from './mcp-resource-context.interface.js';
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

const isFixed = (registration: McpResourceRegistration): registration is McpFixedResourceRegistration =>
  'uri' in registration && registration.uri !== undefined;

/** A runtime resource or template, checked like `@McpResource()` / `@McpResourceTemplate()` (`resource-descriptors.ts`). */
export const runtimeResourceBuilder: McpRuntimeBuilder<McpResourceRegistration> = {
  messages: Messages,
  key: (registration) => (isFixed(registration) ? registration.uri : (registration as McpResourceTemplateRegistration).uriTemplate),
  keys(site, registration) {
    const templated = 'uriTemplate' in registration && registration.uriTemplate !== undefined;
    if (isFixed(registration) === templated) throw new McpConfigurationError(Messages.uriOrTemplate(site));
    return templated ? TEMPLATE_KEYS : FIXED_KEYS;
  },
  build(site, registration): McpComponent {
    if (typeof registration.handler !== 'function') throw new McpConfigurationError(Messages.missingHandler(site));
    const handler = runtimeHandler(registration.handler);
    if (isFixed(registration)) {
      if (typeof registration.uri === 'string' && /[{}]/.test(registration.uri))
        throw new McpConfigurationError(Messages.uriLooksLikeTemplate(site, registration.uri));
      const descriptor = fixedResourceDescriptor(site, 'McpResourceRegistry.register()', registration);
      return { kind: 'resource', definition: { uri: descriptor.uri, site, descriptor, handler, runtime: true } };
    }
    const { matcher, descriptor } = resourceTemplateDescriptor(site, 'McpResourceRegistry.register()', registration);
    return {
      kind: 'resourceTemplate',
      definition: { uriTemplate: descriptor.uriTemplate, site, matcher, descriptor, handler, runtime: true },
    };
  },
};

function runtimeHandler(handler: McpResourceHandlerFunction): McpFeatureHandler<McpResourceContext> {
  return async (payload, context) => handler((payload ?? {}) as Record<string, string>, context);
}
