import { Injectable, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { McpMessages } from '../../core/errors/mcp.messages.js';
import { McpCapabilities } from '../../core/mcp-capabilities.js';
import { McpProviderMethods, type ProviderMethod } from '../provider-methods.js';
import { McpCompletionTargets } from './completion-targets.js';
import { describeRef } from './completion-target.js';
import type { McpCompletionContext } from './mcp-completion-context.interface.js';
import type { McpCompletionOptions, McpCompletionRef } from './mcp-completion-options.interface.js';
import { McpCompletionRegistry } from './mcp-completion.registry.js';
import { MCP_METADATA } from '../mcp-metadata.accessor.js';

/**
 * Collects `@McpCompletion()` methods at module init, then, once every explorer has run (prompts and templates
 * are registered by theirs), checks at bootstrap that each completes an argument something declares.
 */
@Injectable()
export class McpCompletionExplorer implements OnModuleInit, OnApplicationBootstrap {
  constructor(
    private readonly providerMethods: McpProviderMethods,
    private readonly registry: McpCompletionRegistry,
    private readonly targets: McpCompletionTargets,
    private readonly capabilities: McpCapabilities,
  ) {}

  onModuleInit(): void {
    for (const [method, list] of this.providerMethods.decorated(MCP_METADATA.completions)) {
      // The same handler serves every argument the method completes (one ExternalContextCreator wrapper).
      const handler = this.providerMethods.handlerOf<McpCompletionContext>(method);
      for (const options of list)
        this.registry.add({ ref: checkRef(method, options), argument: options.argument, site: method.site, handler });
    }
    // `completion/complete` is always served: prompts and templates also turn the capability on, and its
    // handler checks the capability per request.
    if (this.registry.size > 0) this.capabilities.declare('completions');
  }

  onApplicationBootstrap(): void {
    for (const completer of this.registry.all()) {
      const target = this.targets.find(completer.ref, true);
      if (!target) {
        throw new McpConfigurationError(
          completer.ref.type === 'ref/prompt'
            ? McpMessages.completionUnknownPrompt(completer.site, completer.ref.name)
            : McpMessages.completionUnknownTemplate(completer.site, completer.ref.uri),
        );
      }
      if (!target.arguments.includes(completer.argument)) {
        throw new McpConfigurationError(
          McpMessages.completionUnknownArgument(completer.site, describeRef(completer.ref), completer.argument, target.arguments),
        );
      }
    }
  }
}

function checkRef({ site }: ProviderMethod, options: McpCompletionOptions): McpCompletionRef {
  const ref = options?.ref as Partial<Record<string, unknown>> | undefined;
  const argumentOk = typeof options?.argument === 'string' && options.argument !== '';
  if (argumentOk && ref?.type === 'ref/prompt' && typeof ref.name === 'string' && ref.name !== '')
    return { type: 'ref/prompt', name: ref.name };
  if (argumentOk && ref?.type === 'ref/resource' && typeof ref.uri === 'string' && ref.uri !== '')
    return { type: 'ref/resource', uri: ref.uri };
  throw new McpConfigurationError(McpMessages.invalidCompletionRef(site));
}
