import { bootErrors } from '../../core/errors/boot-errors.js';
import { argsNotAClassText, runtimeRegistrationErrors } from '../components/runtime-registration.messages.js';

/** The runtime tool registry's errors (`McpToolRegistry.register/replace/remove`; codes in `docs/errors.md`). */
export const McpToolRuntimeMessages = {
  ...runtimeRegistrationErrors({
    area: 'TOOL',
    noun: 'tool',
    registry: 'McpToolRegistry',
    shape: '{ name, description, handler, ... }',
    handler: '(args, context) => result',
    lookup: 'tool of that name',
    declared: (existing) => `the tool is declared by ${existing} with @McpTool()`,
    decoratedHint: ' (hide a decorated tool with visibleTo or a toolFilter)',
    decoratedFix: 'Hide a decorated tool with `visibleTo` or a tool filter instead.',
    keyHint: {
      text: (key) => (key === 'job' ? ' (long-running tools must be declared with @McpTool({ job: true }))' : ''),
      fix: 'declare job tools with the decorator',
      variants: '(for `job`: long-running tools must be declared with `@McpTool({ job: true })`)',
    },
    siteChars: 80,
    taken: 'NAME_TAKEN',
  }),
  ...bootErrors({
    argsNotAClass: {
      code: 'MCP_ERR_TOOL_REGISTER_ARGS_NOT_A_CLASS',
      message: argsNotAClassText,
      fix: 'Pass the DTO class itself or a schema, not an instance or a plain object.',
    },
    invalidVisibleTo: {
      code: 'MCP_ERR_TOOL_VISIBLE_TO_INVALID',
      message: (site: string) => `${site}: visibleTo must be a function (principal) => boolean.`,
      fix: 'Pass a function.',
    },
  }),
} as const;
