import { Injectable } from '@nestjs/common';
import { McpTool, McpToolRegistry, McpUiResource, type McpToolUiOptions, type McpUiResourceOptions } from '../../index.js';
import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { bootError, bootMcp, closeMcpApps, dispatch, thrown } from '../../../../../test/kit/boot-mcp.js';
import { clientSupportsUi } from './tool-ui.js';

const HTML = '<!doctype html><p>app</p>';

/** A provider with one UI resource and one tool pointing at `toolUi`. */
function appProvider(toolUi: McpToolUiOptions, resource: Partial<McpUiResourceOptions> = {}) {
  @Injectable()
  class AppTools {
    @McpUiResource({ uri: 'ui://demo/view', name: 'demo-view', ...resource } as McpUiResourceOptions)
    view() {
      return HTML;
    }

    @McpTool({ description: 'Shows the demo.', ui: toolUi })
    showDemo() {
      return { ok: true };
    }
  }
  return AppTools;
}

describe('MCP Apps at boot', () => {
  afterEach(closeMcpApps);

  it('a ui.resourceUri no UI resource serves fails the boot naming the tool, the URI and the fix', async () => {
    const error = await bootError(() => bootMcp([appProvider({ resourceUri: 'ui://demo/other' })]));
    expect(error).toBeInstanceOf(McpConfigurationError);
    expect(error.message).toBe(
      "Tool 'show_demo' (AppTools#showDemo) has ui.resourceUri 'ui://demo/other', which no @McpUiResource() of this server serves " +
        "(served: ui://demo/view). Add @McpUiResource({ uri: 'ui://demo/other', name }) on a provider method returning the HTML, or fix the URI.",
    );
  });

  it.each([
    [{ resourceUri: 'https://example.com/app.html' }, 'not a ui:// URI'],
    [{ resourceUri: 'ui://' }, 'not a ui:// URI'],
    [{ resourceUri: 'ui://demo/view', visibility: [] }, 'expected a non-empty list'],
    [{ resourceUri: 'ui://demo/view', visibility: ['user'] }, 'expected a non-empty list'],
    [{ resourceUri: 'ui://demo/view', visibility: ['app', 'app'] }, 'expected a non-empty list'],
  ])('a badly formed ui %j fails the boot naming the method', async (ui, problem) => {
    const error = await bootError(() => bootMcp([appProvider(ui as McpToolUiOptions)]));
    expect(error).toBeInstanceOf(McpConfigurationError);
    expect(error.message).toContain('AppTools#showDemo: @McpTool({ ui })');
    expect(error.message).toContain(problem);
  });

  it.each([
    [{ uri: 'app://demo/view' }, 'it must be a ui:// URI'],
    [{ name: '' }, 'needs a name'],
    [{ csp: { scriptDomains: ['https://cdn.example.com'] } }, "unknown csp key 'scriptDomains'"],
    [{ csp: { connectDomains: 'https://api.example.com' } }, 'csp.connectDomains that is not a list of origins'],
    [{ csp: { connectDomains: ["https://a.example; script-src 'unsafe-eval'"] } }, 'csp.connectDomains that is not a list of origins'],
    [{ permissions: { usb: {} } }, "unknown permission 'usb'"],
    [{ prefersBorder: 'yes' }, 'prefersBorder that is not a boolean'],
  ])('bad @McpUiResource() options %j fail the boot naming the method', async (resource, problem) => {
    const error = await bootError(() =>
      bootMcp([appProvider({ resourceUri: 'ui://demo/view' }, resource as Partial<McpUiResourceOptions>)]),
    );
    expect(error).toBeInstanceOf(McpConfigurationError);
    expect(error.message).toContain('AppTools#view: @McpUiResource()');
    expect(error.message).toContain(problem);
  });

  it('two UI resources with one URI fail the boot naming both methods', async () => {
    @Injectable()
    class Twice {
      @McpUiResource({ uri: 'ui://demo/view', name: 'a' })
      first() {
        return HTML;
      }

      @McpUiResource({ uri: 'ui://demo/view', name: 'b' })
      second() {
        return HTML;
      }
    }
    const error = await bootError(() => bootMcp([Twice]));
    expect(error.message).toBe(
      "UI resource 'ui://demo/view' is declared twice: Twice#first and Twice#second. Give each app its own ui:// URI.",
    );
  });

  it('without any UI resource the extension is not declared; with one it is, and resources are served', async () => {
    const plain = await bootMcp([]);
    const bare = (await dispatch(plain, 'initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 't', version: '1' },
    }))!;
    expect((bare as unknown as { result: { capabilities: Record<string, unknown> } }).result.capabilities.extensions).toBeUndefined();
    const withUi = await bootMcp([appProvider({ resourceUri: 'ui://demo/view' })]);
    const init = (await dispatch(withUi, 'initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 't', version: '1' },
    }))!;
    expect((init as unknown as { result: { capabilities: Record<string, unknown> } }).result.capabilities).toMatchObject({
      extensions: { 'io.modelcontextprotocol/ui': {} },
      resources: { subscribe: true },
    });
  });

  it('a UI method returning something other than HTML text is a -32603 on resources/read', async () => {
    @Injectable()
    class NotText {
      @McpUiResource({ uri: 'ui://demo/bytes', name: 'bytes' })
      view() {
        return Buffer.from(HTML);
      }
    }
    const app = await bootMcp([NotText]);
    const answer = (await dispatch(app, 'resources/read', { uri: 'ui://demo/bytes' }))!;
    expect((answer as unknown as { error: { code: number } }).error.code).toBe(-32603);
  });
});

describe('MCP Apps on runtime tools (McpToolRegistry.register({ ui }))', () => {
  afterEach(closeMcpApps);

  async function runtimeRegistry() {
    const app = await bootMcp([appProvider({ resourceUri: 'ui://demo/view' })], { options: { lists: { listChanged: { tools: true } } } });
    return { app, tools: app.get(McpToolRegistry) };
  }

  it('accepts a served ui.resourceUri: the tool lists with _meta.ui like a decorated one', async () => {
    const { app, tools } = await runtimeRegistry();
    tools.register({
      name: 'show_later',
      description: 'Shows later.',
      ui: { resourceUri: 'ui://demo/view', visibility: ['app'] },
      handler: () => 1,
    });
    const context = {
      transport: 'http' as const,
      protocolVersion: '2025-11-25',
      clientCapabilities: { extensions: { 'io.modelcontextprotocol/ui': {} } },
    };
    const list = (await dispatch(app, 'tools/list', {}, { context })) as unknown as {
      result: { tools: Array<{ name: string; _meta?: unknown }> };
    };
    expect(list.result.tools.find((tool) => tool.name === 'show_later')?._meta).toEqual({
      ui: { resourceUri: 'ui://demo/view', visibility: ['app'] },
      'ui/resourceUri': 'ui://demo/view',
    });
  });

  it('refuses a ui.resourceUri no @McpUiResource() serves, and a badly formed ui, naming the call', async () => {
    const { tools } = await runtimeRegistry();
    const unserved = thrown(() =>
      tools.register({ name: 'show_other', description: 'Other.', ui: { resourceUri: 'ui://demo/other' }, handler: () => 1 }),
    );
    expect(unserved).toBeInstanceOf(McpConfigurationError);
    expect(unserved.message).toBe(
      "Tool 'show_other' (McpToolRegistry.register(\"show_other\")) has ui.resourceUri 'ui://demo/other', which no @McpUiResource() of this server " +
        "serves (served: ui://demo/view). Add @McpUiResource({ uri: 'ui://demo/other', name }) on a provider method returning the HTML, or fix the URI.",
    );
    expect(tools.has('show_other')).toBe(false);
    const malformed = thrown(() =>
      tools.register({ name: 'show_bad', description: 'Bad.', ui: { resourceUri: 'https://x' }, handler: () => 1 }),
    );
    expect(malformed.message).toContain('McpToolRegistry.register("show_bad"): "ui" has resourceUri "https://x", not a ui:// URI');
  });
});

describe('clientSupportsUi', () => {
  it.each([
    [undefined, false],
    [{}, false],
    [{ extensions: {} }, false],
    [{ extensions: { 'io.modelcontextprotocol/ui': true } }, false],
    [{ extensions: { 'io.modelcontextprotocol/ui': {} } }, true],
    [{ extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } }, true],
    [{ extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html'] } } }, false],
  ])('%j → %s', (capabilities, expected) => {
    expect(clientSupportsUi(capabilities as Record<string, unknown> | undefined)).toBe(expected);
  });
});
