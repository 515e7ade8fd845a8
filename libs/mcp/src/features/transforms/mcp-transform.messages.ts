import { bootErrors } from '../../core/errors/boot-errors.js';

/** Boot errors of tool transforms (`McpModule.forRoot({ tools: { transforms } })`; codes in `docs/errors.md`). */
export const McpTransformMessages = bootErrors({
  invalid: {
    code: 'MCP_ERR_TRANSFORM_INVALID',
    message: (at: string, problem: string) =>
      `McpModule option "${at}" ${problem}; build transforms with renameTool(), describeTool(), hideArguments(), renameArguments() or namespaceTools().`,
    fix: 'Build each entry with one of the functions, with the arguments the message asks for.',
    shown: { at: 'tools.transforms[<i>]' },
  },
  unknownTool: {
    code: 'MCP_ERR_TRANSFORM_TOOL_UNKNOWN',
    message: (at: string, selector: string, known: readonly string[]) =>
      `McpModule option "${at}" names ${selector}, which picks no tool; the tools at that point are ${known.length === 0 ? 'none' : known.join(', ')}.`,
    fix: 'Fix the name or glob; a transform sees the names the transforms before it left (`renameTool` first, then the new name).',
    shown: { at: 'tools.transforms[<i>]', known: ['<names>'] },
  },
  nameClash: {
    code: 'MCP_ERR_TRANSFORM_NAME_CLASH',
    message: (name: string, first: string, second: string) =>
      `After the transforms, ${first} and ${second} are both named "${name}"; rename one of them (renameTool) or narrow the transform.`,
    fix: 'Give the two tools different names.',
  },
  unknownArgument: {
    code: 'MCP_ERR_TRANSFORM_ARGUMENT_UNKNOWN',
    message: (at: string, site: string, name: string, known: readonly string[]) =>
      `McpModule option "${at}" names the argument "${name.slice(0, 60)}" of ${site}, which takes ${known.length === 0 ? 'none' : known.join(', ')}.`,
    fix: "Name an argument the tool's `inputSchema` lists (as earlier transforms left it).",
    shown: { at: 'tools.transforms[<i>]', known: ['<arguments>'] },
  },
  argumentClash: {
    code: 'MCP_ERR_TRANSFORM_ARGUMENT_CLASH',
    message: (at: string, site: string, name: string) =>
      `McpModule option "${at}" gives ${site} two arguments named "${name.slice(0, 60)}"; choose another name.`,
    fix: 'Rename to a name no other argument has.',
    shown: { at: 'tools.transforms[<i>]' },
  },
  requiredHidden: {
    code: 'MCP_ERR_TRANSFORM_REQUIRED_ARGUMENT_HIDDEN',
    message: (at: string, site: string, name: string) =>
      `McpModule option "${at}" hides "${name.slice(0, 60)}", a required argument of ${site}, without a value; give the value every call should get.`,
    fix: '`hideArguments(tool, { <name>: value })`.',
    shown: { at: 'tools.transforms[<i>]' },
  },
  idempotencyKeyHidden: {
    code: 'MCP_ERR_TRANSFORM_IDEMPOTENCY_KEY_HIDDEN',
    message: (at: string, site: string, name: string) =>
      `McpModule option "${at}" hides "${name.slice(0, 60)}", the idempotency key of ${site}: every call would share one key; rename it instead, or hide another argument.`,
    fix: 'Keep the idempotency key visible (renaming it is fine).',
    shown: { at: 'tools.transforms[<i>]' },
  },
});
