import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { PromptListChangedNotificationSchema, ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpPromptRegistry, McpResourceRegistry } from '@nest-mcp/core';
import { eventually } from '../kit/eventually.js';
import { listenMcp, type RunningApp } from '../kit/apps.js';

describe('runtime resources and prompts (SDK client over HTTP)', () => {
  let app: RunningApp;
  afterAll(() => app?.close());

  it('an app with none at boot: register → list_changed, listed, read / got; remove → list_changed, -32002 / -32602', async () => {
    app = await listenMcp({ name: 'dyn-rp', version: '1.0.0', lists: { listChanged: { resources: true, prompts: true } } }, []);
    const client = new Client({ name: 'dynamic-rp-e2e', version: '1.0.0' });
    const changes = { resources: 0, prompts: 0 };
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void changes.resources++);
    client.setNotificationHandler(PromptListChangedNotificationSchema, () => void changes.prompts++);
    await client.connect(new StreamableHTTPClientTransport(new URL(app.url)));
    expect(client.getServerCapabilities()).toMatchObject({ resources: { listChanged: true }, prompts: { listChanged: true } });
    expect((await client.listResources()).resources).toEqual([]);
    expect((await client.listPrompts()).prompts).toEqual([]);
    // The SDK opens its GET stream after initialize: wait for it before changing the lists.
    await new Promise((resolve) => setTimeout(resolve, 300));

    const resources = app.app.get(McpResourceRegistry);
    const notes = resources.register({ uri: 'app://notes', name: 'notes', mimeType: 'text/markdown', handler: () => '# Notes' });
    const items = resources.register({
      uriTemplate: 'app://items/{id}',
      name: 'items',
      mimeType: 'application/json',
      handler: ({ id }) => JSON.stringify({ id }),
    });
    await eventually(() => changes.resources >= 2, 5_000, 'resources list_changed');
    expect((await client.listResources()).resources).toEqual([{ uri: 'app://notes', name: 'notes', mimeType: 'text/markdown' }]);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([
      { uriTemplate: 'app://items/{id}', name: 'items', mimeType: 'application/json' },
    ]);
    expect((await client.readResource({ uri: 'app://notes' })).contents).toEqual([
      { uri: 'app://notes', mimeType: 'text/markdown', text: '# Notes' },
    ]);
    expect((await client.readResource({ uri: 'app://items/42' })).contents).toEqual([
      { uri: 'app://items/42', mimeType: 'application/json', text: '{"id":"42"}' },
    ]);
    await client.subscribeResource({ uri: 'app://notes' });

    const prompts = app.app.get(McpPromptRegistry);
    const review = prompts.register({
      name: 'review',
      description: 'Reviews a file',
      arguments: [{ name: 'path', required: true }],
      handler: ({ path }) => `Review ${path}`,
    });
    await eventually(() => changes.prompts >= 1, 5_000, 'prompts list_changed');
    expect((await client.listPrompts()).prompts).toEqual([
      { name: 'review', description: 'Reviews a file', arguments: [{ name: 'path', required: true }] },
    ]);
    expect((await client.getPrompt({ name: 'review', arguments: { path: 'a.ts' } })).messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Review a.ts' } },
    ]);

    expect(notes.remove()).toBe(true);
    expect(items.remove()).toBe(true);
    expect(review.remove()).toBe(true);
    await eventually(() => changes.resources >= 4 && changes.prompts >= 2, 5_000, 'list_changed after remove');
    expect((await client.listResources()).resources).toEqual([]);
    expect((await client.listPrompts()).prompts).toEqual([]);
    await expect(client.readResource({ uri: 'app://notes' })).rejects.toMatchObject({ code: -32002 });
    await expect(client.readResource({ uri: 'app://items/42' })).rejects.toMatchObject({ code: -32002 });
    await expect(client.getPrompt({ name: 'review', arguments: { path: 'a.ts' } })).rejects.toMatchObject({ code: -32602 });
    await client.close();
  });
});
