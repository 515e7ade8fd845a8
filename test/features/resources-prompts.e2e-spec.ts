import 'reflect-metadata';
import { Injectable } from '@nestjs/common';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ErrorCode,
  McpError,
  ResourceUpdatedNotificationSchema,
  type ResourceUpdatedNotification,
} from '@modelcontextprotocol/sdk/types.js';
import {
  McpCompletion,
  McpContent,
  McpPrompt,
  McpResource,
  McpResourceNotifier,
  McpResourceParams,
  McpResourceTemplate,
  McpTool,
  type McpCompletionContext,
} from '@nest-mcp/core';
import { listenMcp, type RunningApp } from '../kit/apps.js';

/** A 1x1 transparent PNG. */
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const WATCHED = 'test://watched-resource';

/** The resources of the conformance suite (names, URIs and texts as CONFORMANCE-FIXTURE.md lists them). */
@Injectable()
class ConformanceResources {
  @McpResource({ uri: 'test://static-text', name: 'static-text', description: 'A static text resource', mimeType: 'text/plain' })
  staticText() {
    return 'This is the content of the static text resource.';
  }

  @McpResource({ uri: 'test://static-binary', name: 'static-binary', description: 'A static binary resource (PNG)', mimeType: 'image/png' })
  staticBinary() {
    return Buffer.from(PNG_BASE64, 'base64');
  }

  @McpResource({ uri: WATCHED, name: 'watched-resource', description: 'A resource clients can subscribe to', mimeType: 'text/plain' })
  watched() {
    return 'Watched resource content.';
  }

  @McpResourceTemplate({
    uriTemplate: 'test://template/{id}/data',
    name: 'template-data',
    description: 'Data by id',
    mimeType: 'application/json',
  })
  templateData(@McpResourceParams() params: { id: string }) {
    return JSON.stringify({ id: params.id, templateTest: true, data: `Data for ID: ${params.id}` });
  }
}

/** The prompts of the conformance suite, and a completer for one argument. */
@Injectable()
class ConformancePrompts {
  @McpPrompt({ description: 'A simple prompt without arguments' })
  testSimplePrompt() {
    return 'This is a simple prompt for testing.';
  }

  @McpPrompt({
    description: 'A prompt with required arguments',
    arguments: [
      { name: 'arg1', description: 'First test argument', required: true },
      { name: 'arg2', description: 'Second test argument', required: true },
    ],
  })
  testPromptWithArguments(args: { arg1: string; arg2: string }) {
    return `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'`;
  }

  @McpPrompt({
    description: 'A prompt that embeds a resource',
    arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
  })
  testPromptWithEmbeddedResource(args: { resourceUri: string }) {
    return [
      {
        role: 'user' as const,
        content: McpContent.resource({ uri: args.resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' }),
      },
      { role: 'user' as const, content: McpContent.text('Please process the embedded resource above.') },
    ];
  }

  @McpPrompt({ description: 'A prompt with an image' })
  testPromptWithImage() {
    return [
      { role: 'user' as const, content: McpContent.image(PNG_BASE64, 'image/png') },
      { role: 'user' as const, content: McpContent.text('Please analyze the image above.') },
    ];
  }

  @McpPrompt({ description: 'Greets someone in a language', arguments: [{ name: 'language', required: true }, { name: 'name' }] })
  greeting(args: { language: string; name?: string }) {
    return `Greet ${args.name ?? 'the user'} in ${args.language}.`;
  }

  @McpCompletion({ ref: { type: 'ref/prompt', name: 'greeting' }, argument: 'language' })
  languages(value: string, context: McpCompletionContext) {
    const all = ['english', 'esperanto', 'estonian', 'french', 'german'];
    return all
      .filter((language) => language.startsWith(value.toLowerCase()))
      .map((language) => (context.arguments.name ? `${language} (${context.arguments.name})` : language));
  }
}

/** A tool that changes the watched resource: the way an application would trigger the notification. */
@Injectable()
class WatchedWriter {
  constructor(private readonly notifier: McpResourceNotifier) {}

  @McpTool({ description: 'Touches the watched resource and notifies its subscribers' })
  touchWatchedResource() {
    return { notified: this.notifier.resourceUpdated(WATCHED) };
  }
}

describe('resources, prompts and completions over Streamable HTTP (official SDK client)', () => {
  let app: RunningApp;
  let url: URL;
  let client: Client;
  let transport: StreamableHTTPClientTransport;
  let updates: ResourceUpdatedNotification[];

  beforeAll(async () => {
    app = await listenMcp({ name: 'features-fixture', version: '1.0.0' }, [ConformanceResources, ConformancePrompts, WatchedWriter]);
    url = new URL(app.url);
  });

  afterAll(async () => {
    await app?.close();
  });

  beforeEach(async () => {
    updates = [];
    client = new Client({ name: 'features-e2e', version: '1.0.0' }, { capabilities: { sampling: {}, elicitation: {} } });
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
      updates.push(notification);
    });
    transport = new StreamableHTTPClientTransport(url);
    await client.connect(transport);
  });

  afterEach(async () => {
    await client?.close();
  });

  /** Polls until `check` holds (the SDK opens its GET stream on its own, after connecting). */
  async function eventually<T>(probe: () => T | Promise<T>, check: (value: T) => boolean, timeoutMs = 5000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await probe();
      if (check(value)) return value;
      if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms (last value ${JSON.stringify(value)})`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('declares resources.subscribe, prompts and completions', () => {
    const capabilities = client.getServerCapabilities();
    expect(capabilities?.resources).toEqual({ subscribe: true });
    expect(capabilities?.prompts).toEqual({});
    expect(capabilities?.completions).toEqual({});
    expect(capabilities?.tools).toBeDefined();
  });

  describe('resources', () => {
    it('lists the fixed resources (not the template), each with uri, name, description and mimeType', async () => {
      const { resources, nextCursor } = await client.listResources();
      expect(nextCursor).toBeUndefined();
      expect(resources.map((resource) => resource.uri)).toEqual(['test://static-text', 'test://static-binary', WATCHED]);
      for (const resource of resources) {
        expect(resource).toEqual({
          uri: expect.any(String),
          name: expect.any(String),
          description: expect.any(String),
          mimeType: expect.any(String),
        });
      }
    });

    it('reads a text resource', async () => {
      const { contents } = await client.readResource({ uri: 'test://static-text' });
      expect(contents).toEqual([
        { uri: 'test://static-text', mimeType: 'text/plain', text: 'This is the content of the static text resource.' },
      ]);
    });

    it('reads a binary resource as a base64 blob', async () => {
      const { contents } = await client.readResource({ uri: 'test://static-binary' });
      expect(contents).toEqual([{ uri: 'test://static-binary', mimeType: 'image/png', blob: PNG_BASE64 }]);
    });

    it('lists the template and reads through it with the variable', async () => {
      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates).toEqual([
        { uriTemplate: 'test://template/{id}/data', name: 'template-data', description: 'Data by id', mimeType: 'application/json' },
      ]);
      const { contents } = await client.readResource({ uri: 'test://template/123/data' });
      expect(contents).toHaveLength(1);
      expect(contents[0]).toMatchObject({ uri: 'test://template/123/data', mimeType: 'application/json' });
      expect(JSON.parse((contents[0] as { text: string }).text)).toEqual({ id: '123', templateTest: true, data: 'Data for ID: 123' });
    });

    it('rejects an unknown URI with -32002', async () => {
      const read = client.readResource({ uri: 'test://does-not-exist' });
      await expect(read).rejects.toBeInstanceOf(McpError);
      await expect(read).rejects.toMatchObject({ code: -32002, data: { uri: 'test://does-not-exist' } });
    });

    it('subscribes, receives notifications/resources/updated on the GET stream, and unsubscribes', async () => {
      const notifier = app.app.get(McpResourceNotifier);
      await expect(client.subscribeResource({ uri: WATCHED })).resolves.toEqual({});
      // Nothing can be delivered until the SDK's GET stream is open; from then on the session is reached.
      await eventually(
        () => notifier.resourceUpdated(WATCHED),
        (reached) => reached === 1,
      );
      await eventually(
        () => updates.length,
        (count) => count >= 1,
      );
      expect(updates[0]).toEqual({ method: 'notifications/resources/updated', params: { uri: WATCHED } });

      // An application change, through a tool that injects the notifier.
      updates = [];
      const touched = await client.callTool({ name: 'touch_watched_resource' });
      expect(touched.structuredContent).toEqual({ status: 'success', data: { notified: 1 } });
      await eventually(
        () => updates.length,
        (count) => count === 1,
      );

      await expect(client.unsubscribeResource({ uri: WATCHED })).resolves.toEqual({});
      expect(notifier.resourceUpdated(WATCHED)).toBe(0);
    });
  });

  describe('prompts', () => {
    it('lists every prompt with name and description, and declared arguments', async () => {
      const { prompts } = await client.listPrompts();
      expect(prompts.map((prompt) => prompt.name)).toEqual([
        'test_simple_prompt',
        'test_prompt_with_arguments',
        'test_prompt_with_embedded_resource',
        'test_prompt_with_image',
        'greeting',
      ]);
      for (const prompt of prompts) expect(typeof prompt.description).toBe('string');
      expect(prompts[1].arguments).toEqual([
        { name: 'arg1', description: 'First test argument', required: true },
        { name: 'arg2', description: 'Second test argument', required: true },
      ]);
    });

    it('gets a prompt without arguments', async () => {
      const { messages } = await client.getPrompt({ name: 'test_simple_prompt' });
      expect(messages).toEqual([{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }]);
    });

    it('gets a prompt with arguments', async () => {
      const { messages } = await client.getPrompt({
        name: 'test_prompt_with_arguments',
        arguments: { arg1: 'testValue1', arg2: 'testValue2' },
      });
      expect(messages).toEqual([
        { role: 'user', content: { type: 'text', text: "Prompt with arguments: arg1='testValue1', arg2='testValue2'" } },
      ]);
    });

    it('rejects a missing required argument with -32602 naming it', async () => {
      const get = client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'only one' } });
      await expect(get).rejects.toBeInstanceOf(McpError);
      await expect(get).rejects.toMatchObject({ code: ErrorCode.InvalidParams, message: expect.stringContaining('arg2') });
    });

    it('rejects an unknown prompt with -32602', async () => {
      await expect(client.getPrompt({ name: 'no_such_prompt' })).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    });

    it('gets a prompt with image content', async () => {
      const { messages } = await client.getPrompt({ name: 'test_prompt_with_image' });
      expect(messages).toEqual([
        { role: 'user', content: { type: 'image', data: PNG_BASE64, mimeType: 'image/png' } },
        { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
      ]);
    });

    it('gets a prompt with an embedded resource', async () => {
      const { messages } = await client.getPrompt({
        name: 'test_prompt_with_embedded_resource',
        arguments: { resourceUri: 'test://example-resource' },
      });
      expect(messages).toEqual([
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: { uri: 'test://example-resource', mimeType: 'text/plain', text: 'Embedded resource content for testing.' },
          },
        },
        { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
      ]);
    });
  });

  describe('completions', () => {
    it('completes an argument with a completer, using the other arguments', async () => {
      const { completion } = await client.complete({
        ref: { type: 'ref/prompt', name: 'greeting' },
        argument: { name: 'language', value: 'es' },
      });
      expect(completion).toEqual({ values: ['esperanto', 'estonian'] });
      const withContext = await client.complete({
        ref: { type: 'ref/prompt', name: 'greeting' },
        argument: { name: 'language', value: 'fr' },
        context: { arguments: { name: 'Ada' } },
      });
      expect(withContext.completion.values).toEqual(['french (Ada)']);
    });

    it('answers an argument without a completer with no values (the conformance scenario)', async () => {
      const { completion } = await client.complete({
        ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
        argument: { name: 'arg1', value: 'test' },
      });
      expect(completion).toEqual({ values: [] });
      const template = await client.complete({
        ref: { type: 'ref/resource', uri: 'test://template/{id}/data' },
        argument: { name: 'id', value: '1' },
      });
      expect(template.completion.values).toEqual([]);
    });

    it('rejects an unknown prompt ref with -32602', async () => {
      await expect(
        client.complete({ ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'x', value: '' } }),
      ).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    });
  });
});
