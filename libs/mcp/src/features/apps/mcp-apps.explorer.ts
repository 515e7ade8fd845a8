import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { McpCapabilities } from '../../core/mcp-capabilities.js';
import type { McpFeatureHandler } from '../feature-handler.js';
import { McpProviderMethods, type ProviderMethod } from '../provider-methods.js';
import type { McpResourceContext } from '../resources/mcp-resource-context.interface.js';
import type { McpResourceDefinition, McpResourceDescriptor } from '../resources/mcp-resource-definition.interface.js';
import { McpToolRegistry } from '../tools/mcp-tool.registry.js';
import { MCP_UI_EXTENSION, MCP_UI_MIME_TYPE } from './mcp-apps.constants.js';
import type { McpComponent, McpComponentProvider } from '../components/mcp-component-provider.interface.js';
import { McpAppsMessages } from './mcp-apps.messages.js';
import type { McpUiResourceOptions } from './mcp-ui-options.interface.js';
import { uiOfTool } from './tool-ui.js';
import { MCP_METADATA } from '../mcp-metadata.accessor.js';

const CSP_KEYS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const;
const PERMISSION_KEYS = ['camera', 'microphone', 'geolocation', 'clipboardWrite'] as const;

/**
 * MCP Apps (extension `io.modelcontextprotocol/ui`, SEP-1865). A component provider: every `@McpUiResource()` method
 * is a resource like any other; once loaded it declares the extension, and at bootstrap it checks that each
 * `@McpTool({ ui })` names a UI resource this server serves (a tool registered at runtime, as it is added).
 */
@Injectable()
export class McpAppsExplorer implements McpComponentProvider, OnApplicationBootstrap {
  private readonly uiResources = new Map<string, string>();

  constructor(
    private readonly providerMethods: McpProviderMethods,
    private readonly tools: McpToolRegistry,
    private readonly capabilities: McpCapabilities,
  ) {}

  *components(): Iterable<McpComponent> {
    for (const [method, options] of this.providerMethods.decorated(MCP_METADATA.uiResource))
      yield { kind: 'resource', definition: this.describe(method, options) };
  }

  loaded(): void {
    this.tools.checkRuntimeUi((descriptor, site) => this.checkServed(descriptor, site));
    if (this.uiResources.size === 0) return;
    this.capabilities.declare('extensions', { [MCP_UI_EXTENSION]: {} });
    // The resource explorer may have run first and found no resource of its own: what it would declare.
    this.capabilities.declare('resources', { subscribe: true });
  }

  onApplicationBootstrap(): void {
    for (const tool of this.tools.inOrder()) this.checkServed(tool.descriptor, tool.site);
  }

  private checkServed(descriptor: { name: string; _meta?: Record<string, unknown> }, site: string): void {
    const ui = uiOfTool(descriptor);
    if (!ui || this.uiResources.has(ui.resourceUri)) return;
    throw new McpConfigurationError(McpAppsMessages.unservedToolUi(descriptor.name, site, ui.resourceUri, [...this.uiResources.keys()]));
  }

  private describe(method: ProviderMethod, options: McpUiResourceOptions): McpResourceDefinition {
    const { site } = method;
    const meta = uiResourceMeta(site, options);
    const existing = this.uiResources.get(options.uri);
    if (existing) throw new McpConfigurationError(McpAppsMessages.duplicateUiResource(options.uri, existing, site));
    const html = this.providerMethods.handlerOf<McpResourceContext>(method);
    const descriptor = {
      uri: options.uri,
      name: options.name,
      ...(options.title !== undefined && { title: options.title }),
      ...(options.description !== undefined && { description: options.description }),
      mimeType: MCP_UI_MIME_TYPE,
      // The listing carries `_meta.ui` for hosts to review at connection time; the read's content item too.
      _meta: { ui: meta },
    } as McpResourceDescriptor;
    this.uiResources.set(options.uri, site);
    return { uri: options.uri, site, descriptor, handler: withUiContents(html, options.uri, meta) };
  }
}

/** The method's HTML as the one content item of `resources/read`, with its `_meta.ui` (null for anything else). */
function withUiContents(
  html: McpFeatureHandler<McpResourceContext>,
  uri: string,
  meta: Record<string, unknown>,
): McpFeatureHandler<McpResourceContext> {
  return async (payload, context) => {
    const value = await html(payload, context);
    // Anything but a string is reported by resources/read as a bad result naming the method.
    if (typeof value !== 'string') return null;
    return { contents: [{ uri, mimeType: MCP_UI_MIME_TYPE, text: value, _meta: { ui: meta } }] };
  };
}

/** Validates `@McpUiResource()` options and builds the resource's `_meta.ui`. */
function uiResourceMeta(site: string, options: McpUiResourceOptions): Record<string, unknown> {
  const fail = (problem: string) => new McpConfigurationError(McpAppsMessages.invalidUiResource(site, problem));
  if (typeof options !== 'object' || options === null) throw fail('needs an options object');
  const { uri, name, csp, permissions, domain, prefersBorder } = options;
  if (typeof uri !== 'string' || !/^ui:\/\/[^\s]+$/.test(uri)) throw fail(`has uri ${JSON.stringify(uri)}: it must be a ui:// URI`);
  if (typeof name !== 'string' || name.trim() === '') throw fail('needs a name');
  const meta: Record<string, unknown> = {};
  if (csp !== undefined) {
    if (typeof csp !== 'object' || csp === null) throw fail('has a csp that is not an object');
    for (const key of Object.keys(csp)) {
      const domains = (csp as Record<string, unknown>)[key];
      if (!(CSP_KEYS as readonly string[]).includes(key)) throw fail(`has an unknown csp key '${key}' (known: ${CSP_KEYS.join(', ')})`);
      // Hosts paste these into a CSP: a space, quote, comma or semicolon would add sources or whole directives.
      if (!Array.isArray(domains) || domains.some((origin) => typeof origin !== 'string' || !/^[^\s;,'"]+$/.test(origin))) {
        throw fail(`has csp.${key} that is not a list of origins (e.g. ['https://api.example.com'])`);
      }
    }
    meta.csp = structuredClone(csp);
  }
  if (permissions !== undefined) {
    if (typeof permissions !== 'object' || permissions === null) throw fail('has permissions that are not an object');
    for (const key of Object.keys(permissions)) {
      if (!(PERMISSION_KEYS as readonly string[]).includes(key))
        throw fail(`has an unknown permission '${key}' (known: ${PERMISSION_KEYS.join(', ')}; each given as {})`);
    }
    meta.permissions = structuredClone(permissions);
  }
  if (domain !== undefined) {
    if (typeof domain !== 'string' || domain.trim() === '') throw fail('has a domain that is not a non-empty string');
    meta.domain = domain;
  }
  if (prefersBorder !== undefined) {
    if (typeof prefersBorder !== 'boolean') throw fail('has prefersBorder that is not a boolean');
    meta.prefersBorder = prefersBorder;
  }
  return meta;
}
