import { bootErrors } from '../../core/errors/boot-errors.js';

/** `args` of a runtime tool or prompt is neither a DTO class nor a Standard Schema validator. */
export const argsNotAClassText = (site: string) =>
  `${site}: "args" must be a DTO class carrying class-validator decorators, or a Standard Schema validator (Zod 4, Valibot, ArkType, …).`;

/** How the errors of one runtime registry (`register` / `replace` / `remove`) name its kind of component. */
interface RuntimeKind {
  /** The code's area: `TOOL` gives `MCP_ERR_TOOL_REGISTER_NOT_OBJECT`. */
  readonly area: 'TOOL' | 'PROMPT' | 'RESOURCE';
  readonly noun: 'tool' | 'prompt' | 'resource';
  readonly registry: string;
  /** The definition's shape, for a call with something else than an object. */
  readonly shape: string;
  /** The handler's signature. */
  readonly handler: string;
  /** What `remove` / `replace` look a component up by. */
  readonly lookup: string;
  /** How a decorated component is named when a runtime call tries to change it. */
  readonly declared: (existing: string) => string;
  /** Added to "only … registered at runtime can be replaced or removed". */
  readonly decoratedHint?: string;
  /** What to do instead of changing a decorated component (the fix in `docs/errors.md`): by default, change that. */
  readonly decoratedFix?: string;
  /** Added to the unknown-key error, for a key that has a better place: its text, the fix and its form in the docs. */
  readonly keyHint?: { readonly text: (key: string) => string; readonly fix: string; readonly variants: string };
  /** How much of the name or URI a site shows. */
  readonly siteChars: number;
  /** The end of the code of `register()` with a key in use (`NAME_TAKEN`: `MCP_ERR_TOOL_NAME_TAKEN`). */
  readonly taken: 'NAME_TAKEN' | 'TAKEN';
}

/**
 * The errors every runtime registry shares, with codes `MCP_ERR_<AREA>_…` (listed in `docs/errors.md`); each
 * registry's messages file adds its own. `site` names the call in every message.
 */
export function runtimeRegistrationErrors(kind: RuntimeKind) {
  const { area, noun, registry } = kind;
  return {
    ...bootErrors({
      notAnObject: {
        code: `MCP_ERR_${area}_REGISTER_NOT_OBJECT`,
        message: (method: string) => `${registry}.${method}() needs a ${noun} definition object (${kind.shape}).`,
        fix: 'Pass one definition object.',
      },
      listChangedOff: {
        code: `MCP_ERR_${area}_LIST_CHANGED_OFF`,
        message: (site: string) =>
          `${site}: the ${noun}s list changes at runtime, so clients must be told: set lists: { listChanged: { ${noun}s: true } } in McpModule.forRoot().`,
        fix: `Set \`lists: { listChanged: { ${noun}s: true } }\`.`,
      },
      missingHandler: {
        code: `MCP_ERR_${area}_REGISTER_HANDLER_MISSING`,
        message: (site: string) => `${site}: "handler" must be a function ${kind.handler}.`,
        fix: 'Give a `handler`.',
      },
      unknownKey: {
        code: `MCP_ERR_${area}_REGISTER_KEY_UNKNOWN`,
        message: (site: string, key: string, closest: string | undefined) => {
          const text = `${site}: "${key.slice(0, 60)}" is not a ${noun} definition key${closest ? `; did you mean "${closest}"?` : ''}${kind.keyHint?.text(key) ?? ''}`;
          return text.endsWith('?') ? text : `${text}.`; // a question ends the sentence already
        },
        fix: kind.keyHint ? `Fix the key's spelling; ${kind.keyHint.fix}.` : "Fix the key's spelling.",
        variants: kind.keyHint?.variants,
      },
      taken: {
        code: `MCP_ERR_${area}_${kind.taken}`,
        message: (site: string, existing: string, what = `${noun} name`) =>
          `${site}: the ${what} is taken by ${existing}; choose another${what.endsWith(' name') ? ' name' : ''}, or call replace() to swap a runtime ${noun}.`,
        fix: `Use another ${kind.taken === 'NAME_TAKEN' ? 'name' : 'URI'}, or \`replace()\`.`,
        shown: kind.taken === 'NAME_TAKEN' ? undefined : { what: 'uri or uriTemplate' },
      },
      notRegistered: {
        code: `MCP_ERR_${area}_NOT_REGISTERED`,
        message: (site: string) => `${site}: no ${kind.lookup} was registered at runtime; use register() to add it.`,
        fix: '`register()` it first.',
      },
      decorated: {
        code: `MCP_ERR_${area}_DECORATED`,
        message: (site: string, existing: string) =>
          `${site}: ${kind.declared(existing)}; only ${noun}s registered at runtime can be replaced or removed${kind.decoratedHint ?? ''}.`,
        fix: kind.decoratedFix ?? 'Change the decorated declaration instead.',
      },
    }),
    site: (method: string, key: unknown) => `${registry}.${method}(${JSON.stringify(String(key)).slice(0, kind.siteChars)})`,
  };
}
