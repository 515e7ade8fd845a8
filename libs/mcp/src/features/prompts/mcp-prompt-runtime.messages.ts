import { bootErrors } from '../../core/errors/boot-errors.js';
import { argsNotAClassText, runtimeRegistrationErrors } from '../components/runtime-registration.messages.js';

/** The runtime prompt registry's errors (`McpPromptRegistry.register/replace/remove`; codes in `docs/errors.md`). */
export const McpPromptRuntimeMessages = {
  ...runtimeRegistrationErrors({
    area: 'PROMPT',
    noun: 'prompt',
    registry: 'McpPromptRegistry',
    shape: '{ name, description, handler, ... }',
    handler: '(args, context) => messages',
    lookup: 'prompt of that name',
    declared: (existing) => `the prompt is declared by ${existing} with @McpPrompt()`,
    siteChars: 80,
    taken: 'NAME_TAKEN',
  }),
  ...bootErrors({
    missingDescription: {
      code: 'MCP_ERR_PROMPT_REGISTER_DESCRIPTION_MISSING',
      message: (site: string) => `${site}: a prompt needs a "description" (clients list prompts by it).`,
      fix: 'Add `description`.',
    },
    invalidArguments: {
      code: 'MCP_ERR_PROMPT_REGISTER_ARGUMENTS_INVALID',
      message: (site: string, problem: string) => `${site}: "arguments" are invalid: ${problem}.`,
      fix: 'Give each argument a unique `name`.',
    },
    argsNotAClass: {
      code: 'MCP_ERR_PROMPT_REGISTER_ARGS_NOT_A_CLASS',
      message: argsNotAClassText,
      fix: 'Pass the DTO class itself.',
    },
    argumentsTwice: {
      code: 'MCP_ERR_PROMPT_REGISTER_ARGUMENTS_TWICE',
      message: (site: string) => `${site}: declare the arguments either in "arguments" or with an "args" DTO, not both.`,
      fix: 'Keep one of the two.',
    },
  }),
} as const;
