import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import type { McpResourceDefinition, McpResourceTemplateDefinition } from './mcp-resource-definition.interface.js';
import { McpResourceRegistry } from './mcp-resource.registry.js';
import { compileUriTemplate } from './uri-template.js';

const handler = async () => 'x';

function resource(uri: string, site = 'A#a'): McpResourceDefinition {
  return { uri, site, descriptor: { uri, name: site }, handler };
}

function template(uriTemplate: string, site = 'T#t', mimeType?: string): McpResourceTemplateDefinition {
  return {
    uriTemplate,
    site,
    descriptor: { uriTemplate, name: site, ...(mimeType && { mimeType }) },
    matcher: compileUriTemplate(uriTemplate),
    handler,
  };
}

describe('McpResourceRegistry', () => {
  it('starts empty', () => {
    const registry = new McpResourceRegistry();
    expect(registry.isEmpty).toBe(true);
    expect(registry.hasTemplates).toBe(false);
    expect(registry.resolve('test://x')).toBeUndefined();
  });

  it('resolves a fixed resource before any template, then templates in registration order', () => {
    const registry = new McpResourceRegistry();
    registry.addTemplate(template('test://{kind}/{id}', 'Generic#read'));
    registry.addTemplate(template('test://users/{id}', 'Users#read', 'application/json'));
    registry.addResource(resource('test://users/me', 'Me#read'));
    expect(registry.resolve('test://users/me')).toMatchObject({ site: 'Me#read', variables: {} });
    expect(registry.resolve('test://users/42')).toMatchObject({
      site: 'Generic#read',
      uriTemplate: 'test://{kind}/{id}',
      variables: { kind: 'users', id: '42' },
    });
    expect(registry.resolve('test://nope')).toBeUndefined();
    expect(registry.listTemplates().map((descriptor) => descriptor.uriTemplate)).toEqual(['test://{kind}/{id}', 'test://users/{id}']);
    expect(registry.getTemplate('test://users/{id}')?.site).toBe('Users#read');
  });

  it('carries the template mimeType into the match', () => {
    const registry = new McpResourceRegistry();
    registry.addTemplate(template('test://users/{id}', 'Users#read', 'application/json'));
    expect(registry.resolve('test://users/1')).toMatchObject({ mimeType: 'application/json', name: 'Users#read' });
  });

  it('refuses a duplicate uri or template, naming both sites', () => {
    const registry = new McpResourceRegistry();
    registry.addResource(resource('test://a', 'First#a'));
    expect(() => registry.addResource(resource('test://a', 'Second#a'))).toThrow(McpConfigurationError);
    expect(() => registry.addResource(resource('test://a', 'Second#a'))).toThrow(/First#a.*Second#a/);
    registry.addTemplate(template('test://t/{id}', 'First#t'));
    expect(() => registry.addTemplate(template('test://t/{id}', 'Second#t'))).toThrow(/First#t.*Second#t/);
    expect(registry.listResources()).toHaveLength(1);
    expect(registry.listTemplates()).toHaveLength(1);
  });
});
