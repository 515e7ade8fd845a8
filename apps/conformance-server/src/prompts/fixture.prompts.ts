import { Injectable } from '@nestjs/common';
import { McpCompletion, McpContent, McpPrompt } from '@nest-mcp/core';
import { PNG_BASE64 } from '../media.samples.js';

/** The prompts (and one completer) the conformance suite asks for. */
@Injectable()
export class FixturePrompts {
  @McpPrompt({ name: 'test_simple_prompt', description: 'A simple prompt without arguments' })
  simple(): string {
    return 'This is a simple prompt for testing.';
  }

  @McpPrompt({
    name: 'test_prompt_with_arguments',
    description: 'A prompt with two required arguments',
    arguments: [
      { name: 'arg1', description: 'First test argument', required: true },
      { name: 'arg2', description: 'Second test argument', required: true },
    ],
  })
  withArguments(args: { arg1: string; arg2: string }): string {
    return `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'`;
  }

  @McpPrompt({
    name: 'test_prompt_with_embedded_resource',
    description: 'A prompt that embeds a resource',
    arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
  })
  withEmbeddedResource(args: { resourceUri: string }) {
    return [
      {
        role: 'user' as const,
        content: McpContent.resource({ uri: args.resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' }),
      },
      { role: 'user' as const, content: 'Please process the embedded resource above.' },
    ];
  }

  @McpPrompt({ name: 'test_prompt_with_image', description: 'A prompt with an image' })
  withImage() {
    return [
      { role: 'user' as const, content: McpContent.image(PNG_BASE64, 'image/png') },
      { role: 'user' as const, content: 'Please analyze the image above.' },
    ];
  }

  @McpCompletion({ ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' }, argument: 'arg1' })
  completeArg1(value: string): string[] {
    return ['test', 'testing', 'tested', 'other'].filter((candidate) => candidate.startsWith(value));
  }
}
