import { SetMetadata } from '@nestjs/common';
import { MCP_PROMPT_METADATA } from '../../core/mcp.constants.js';
import type { McpPromptOptions } from './mcp-prompt-options.interface.js';

/**
 * Exposes a provider method as an MCP prompt (`prompts/list`, `prompts/get`). Arguments are declared in the
 * options or by a class-validator DTO on the first parameter (or `@McpArgs()`), which then validates them.
 * The method returns a string (one user text message), an array of messages, or `{ description?, messages }`.
 * @publicApi
 * @example
 * @McpPrompt({ description: 'Reviews code', arguments: [{ name: 'code', required: true }] })
 * reviewCode(args: { code: string }) { return `Please review this code:\n${args.code}`; }
 */
export const McpPrompt = (options: McpPromptOptions): MethodDecorator => SetMetadata(MCP_PROMPT_METADATA, options);
