import { Injectable } from '@nestjs/common';
import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { McpMessages } from '../../core/errors/mcp.messages.js';
import type {
  McpResourceDefinition,
  McpResourceDescriptor,
  McpResourceMatch,
  McpResourceTemplateDefinition,
  McpResourceTemplateDescriptor,
} from './mcp-resource-definition.interface.js';

/**
 * The resources and resource templates of one application, filled once at boot by the explorer; the request
 * path only reads it. One instance per module instance: two apps in one process never share resources.
 */
@Injectable()
export class McpResourceRegistry {
  private readonly resources = new Map<string, McpResourceDefinition>();
  /** Kept in registration order: the order templates are tried in, and listed in. */
  private readonly templates = new Map<string, McpResourceTemplateDefinition>();
  private resourceDescriptors: McpResourceDescriptor[] = [];
  private templateDescriptors: McpResourceTemplateDescriptor[] = [];

  /** Adds a fixed resource; a second one with the same URI is a boot error naming both sites. */
  addResource(resource: McpResourceDefinition): void {
    const existing = this.resources.get(resource.uri);
    if (existing) throw new McpConfigurationError(McpMessages.duplicateResourceUri(resource.uri, existing.site, resource.site));
    this.resources.set(resource.uri, resource);
    this.resourceDescriptors = [...this.resourceDescriptors, resource.descriptor];
  }

  /** Adds a template; the same template twice is a boot error naming both sites. */
  addTemplate(template: McpResourceTemplateDefinition): void {
    const existing = this.templates.get(template.uriTemplate);
    if (existing)
      throw new McpConfigurationError(McpMessages.duplicateResourceTemplate(template.uriTemplate, existing.site, template.site));
    this.templates.set(template.uriTemplate, template);
    this.templateDescriptors = [...this.templateDescriptors, template.descriptor];
  }

  /** What serves `uri`: a fixed resource first, then the first template (in registration order) that matches. */
  resolve(uri: string): McpResourceMatch | undefined {
    const resource = this.resources.get(uri);
    if (resource) {
      const { site, handler, descriptor } = resource;
      return { site, handler, name: descriptor.name, mimeType: descriptor.mimeType, variables: {} };
    }
    for (const template of this.templates.values()) {
      const variables = template.matcher.match(uri);
      if (!variables) continue;
      const { site, handler, descriptor } = template;
      return { site, handler, name: descriptor.name, mimeType: descriptor.mimeType, uriTemplate: template.uriTemplate, variables };
    }
    return undefined;
  }

  getResource(uri: string): McpResourceDefinition | undefined {
    return this.resources.get(uri);
  }

  /** The template registered with exactly this `uriTemplate`. */
  getTemplate(uriTemplate: string): McpResourceTemplateDefinition | undefined {
    return this.templates.get(uriTemplate);
  }

  /** `resources/list` entries in registration order. */
  listResources(): readonly McpResourceDescriptor[] {
    return this.resourceDescriptors;
  }

  /** `resources/templates/list` entries in registration order. */
  listTemplates(): readonly McpResourceTemplateDescriptor[] {
    return this.templateDescriptors;
  }

  get isEmpty(): boolean {
    return this.resources.size === 0 && this.templates.size === 0;
  }

  get hasTemplates(): boolean {
    return this.templates.size > 0;
  }
}
