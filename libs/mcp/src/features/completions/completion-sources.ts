import { Injectable } from '@nestjs/common';
import { McpPromptRegistry } from '../prompts/mcp-prompt.registry.js';
import { McpResourceRegistry } from '../resources/mcp-resource.registry.js';
import type { CompletionSources } from './completion-target.js';

/** The prompt and resource registries, seen through what completion needs from them. */
@Injectable()
export class McpCompletionSources implements CompletionSources {
  constructor(
    private readonly prompts: McpPromptRegistry,
    private readonly resources: McpResourceRegistry,
  ) {}

  prompt(name: string) {
    return this.prompts.get(name);
  }

  template(uriTemplate: string) {
    return this.resources.getTemplate(uriTemplate);
  }

  resolve(uri: string) {
    return this.resources.resolve(uri);
  }
}
