import { Injectable, type INestApplication } from '@nestjs/common';
import type { McpModuleOptions } from '../../options/mcp-module-options.interface.js';
import { bootRegistry, closeMcpApps, dispatch, thrown } from '../../../../../test/kit/boot-mcp.js';
import { McpResource, McpResourceTemplate } from './mcp-resource.decorator.js';
import { McpResourceSubscriptions } from './resource-subscriptions.js';
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

@Injectable()
class DecoratedResources {
  @McpResource({ uri: 'app://decorated', name: 'decorated' })
  decorated() {
    return 'd';
  }

  @McpResourceTemplate({ uriTemplate: 'app://decorated/{id}', name: 'decorated-items' })
  item() {
    return 'i';
  }
}

const notes = { uri: 'app://notes', name: 'notes', mimeType: 'text/plain', handler: () => 'n' };
const items = { uriTemplate: 'app://items/{id}', name: 'items', handler: ({ id }: Record<string, string>) => `item ${id}` };

async function runtimeRegistry(
  options: Partial<McpModuleOptions> = { lists: { listChanged: { resources: true } } },
  providers = [DecoratedResources],
) {
  const { registry: resources, ...booted } = await bootRegistry(McpResourceRegistry, providers, options);
  return { ...booted, resources };
}

type Answer = { result?: Record<string, unknown>; error?: { code: number } };
const read = async (app: INestApplication, uri: string) => (await dispatch(app, 'resources/read', { uri })) as unknown as Answer;

describe('McpResourceRegistry runtime API', () => {
  afterEach(closeMcpApps);

  it('register (fixed and template), duplicate, replace, remove; each announces resources', async () => {
    const { app, resources, changes } = await runtimeRegistry();
    const handle = resources.register(notes);
    const templateHandle = resources.register(items);
    expect([handle.kind, handle.key, templateHandle.kind, templateHandle.key]).toEqual([
      'resource',
      'app://notes',
      'template',
      'app://items/{id}',
    ]);
    expect(changes).toEqual(['resources', 'resources']);
    expect(thrown(() => resources.register(notes)).message).toContain('McpResourceRegistry.register("app://notes"): the uri is taken');
    expect(thrown(() => resources.register({ ...notes, uri: 'app://decorated' })).message).toContain('DecoratedResources#decorated');
    expect(thrown(() => resources.register({ ...items, uriTemplate: 'app://decorated/{id}' })).message).toContain(
      'the uriTemplate is taken by DecoratedResources#item',
    );

    expect((await read(app, 'app://notes')).result).toEqual({ contents: [{ uri: 'app://notes', mimeType: 'text/plain', text: 'n' }] });
    expect((await read(app, 'app://items/7')).result).toMatchObject({ contents: [{ uri: 'app://items/7', text: 'item 7' }] });

    handle.replace({ name: 'notes v2', handler: () => 'n2' });
    const list = (await dispatch(app, 'resources/list')) as unknown as { result: { resources: { uri: string; name: string }[] } };
    expect(list.result.resources.map((entry) => [entry.uri, entry.name])).toEqual([
      ['app://decorated', 'decorated'],
      ['app://notes', 'notes v2'],
    ]);
    expect((await read(app, 'app://notes')).result).toMatchObject({ contents: [{ text: 'n2' }] });
    expect(thrown(() => resources.replace({ ...notes, uri: 'app://decorated' })).message).toContain('only resources registered at runtime');
    expect(thrown(() => resources.replace({ ...notes, uri: 'app://never' })).message).toContain('use register()');
    expect(thrown(() => resources.remove('app://decorated/{id}')).message).toContain('declared by DecoratedResources#item');

    expect(handle.remove()).toBe(true);
    expect(handle.remove()).toBe(false);
    expect(templateHandle.remove()).toBe(true);
    expect((await read(app, 'app://notes')).error?.code).toBe(-32002);
    expect((await read(app, 'app://items/7')).error?.code).toBe(-32002);
    expect(changes).toHaveLength(5);
  });

  it('removing drops the subscriptions to URIs nothing serves any more, and keeps the others', async () => {
    const { resources, app } = await runtimeRegistry();
    const subscriptions = app.get(McpResourceSubscriptions);
    const subscriber = { key: 'http:s1', deliver: () => true };
    resources.register(notes);
    resources.register({ ...items, uriTemplate: 'app://decorated/{+rest}' });
    resources.register(items);
    for (const uri of ['app://notes', 'app://items/1', 'app://decorated/2']) subscriptions.subscribe(uri, subscriber);
    resources.remove('app://notes');
    expect(subscriptions.urisOf('http:s1')).toEqual(['app://items/1', 'app://decorated/2']);
    // app://decorated/2 is still served by the decorated template.
    resources.remove('app://decorated/{+rest}');
    resources.remove('app://items/{id}');
    expect(subscriptions.urisOf('http:s1')).toEqual(['app://decorated/2']);
  });

  it.each([
    [{ ...notes, uri: 'relative/path' }, 'is not an absolute URI'],
    [{ ...notes, uri: 'app://x/{id}' }, "register it as { uriTemplate: 'app://x/{id}'"],
    [{ ...notes, name: '' }, 'needs a "name"'],
    [{ ...notes, size: -1 }, 'size must be a non-negative integer'],
    [{ ...notes, handler: undefined }, '"handler" must be a function'],
    [{ ...notes, mimetype: 'text/plain' }, 'did you mean "mimeType"'],
    [{ ...items, size: 3 }, '"size" is not a resource definition key'],
    [{ ...items, uriTemplate: 'app://items/{id' }, 'uriTemplate "app://items/{id" is invalid'],
    [{ ...items, uriTemplate: 'items/{id}' }, 'does not expand to an absolute URI'],
    [{ ...notes, uriTemplate: 'app://items/{id}' }, 'give exactly one of "uri"'],
    [{ name: 'neither', handler: () => 'x' }, 'give exactly one of "uri"'],
    [null, 'needs a resource definition object'],
  ])('rejects a bad definition: %j', async (definition, message) => {
    const { resources, changes } = await runtimeRegistry();
    const error = thrown(() => resources.register(definition as never));
    expect(error).toBeInstanceOf(McpConfigurationError);
    expect(error.message).toContain(message);
    expect(resources.listResources().map((entry) => entry.uri)).toEqual(['app://decorated']);
    expect(changes).toEqual([]);
  });

  it('requires lists.listChanged: { resources: true }, naming the fix', async () => {
    const { resources } = await runtimeRegistry({ lists: { listChanged: { tools: true } } });
    const error = thrown(() => resources.register(notes));
    expect(error).toBeInstanceOf(McpConfigurationError);
    expect(error.message).toBe(
      'McpResourceRegistry.register("app://notes"): the resources list changes at runtime, so clients must be told: set lists: { listChanged: { resources: true } } in McpModule.forRoot().',
    );
  });

  it('with lists.listChanged.resources, an app without resources serves the methods and the capability while empty', async () => {
    const { app, resources } = await runtimeRegistry({ lists: { listChanged: { resources: true } } }, []);
    const init = (await dispatch(app, 'initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 't', version: '1' },
    })) as unknown as { result: { capabilities: Record<string, unknown> } };
    expect(init.result.capabilities.resources).toEqual({ subscribe: true, listChanged: true });
    expect(((await dispatch(app, 'resources/list')) as unknown as Answer).result).toEqual({ resources: [] });
    resources.register(items);
    expect((await read(app, 'app://items/3')).result).toMatchObject({ contents: [{ text: 'item 3' }] });

    const { app: plain } = await runtimeRegistry({}, []);
    expect(((await dispatch(plain, 'resources/list')) as unknown as Answer).error?.code).toBe(-32601);
  });
});
