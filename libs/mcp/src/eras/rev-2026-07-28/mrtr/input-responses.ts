import { isPlainObject } from '../../../core/plain-object.js';

/** Client requests an input request may embed, with the key prefix of their default keys. */
export const INPUT_KEY_PREFIXES: Readonly<Record<string, string>> = {
  'elicitation/create': 'elicit',
  'sampling/createMessage': 'sample',
  'roots/list': 'roots',
};

/** Whether a client's answer has the shape its method's result type has (a handler never sees a number for an object). */
export function isValidInputResponse(method: string, value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  switch (method) {
    case 'elicitation/create':
      return (
        (value.action === 'accept' || value.action === 'decline' || value.action === 'cancel') &&
        (value.content === undefined || isPlainObject(value.content))
      );
    case 'sampling/createMessage':
      return (
        (value.role === 'user' || value.role === 'assistant') &&
        (isPlainObject(value.content) || Array.isArray(value.content)) &&
        typeof value.model === 'string'
      );
    case 'roots/list':
      return Array.isArray(value.roots) && value.roots.every((root) => isPlainObject(root) && typeof root.uri === 'string');
    default:
      return false;
  }
}

/**
 * The client capability an input request needs, as a `ClientCapabilities` fragment, when this request's
 * `clientCapabilities` lack it: form elicitation needs `elicitation` (`{}` or `form`), URL mode
 * `elicitation.url`, sampling `sampling` (and `sampling.tools` when tools are offered), roots `roots`.
 */
export function missingCapabilityFor(
  method: string,
  params: Record<string, unknown>,
  capabilities: Record<string, unknown>,
): Record<string, unknown> | undefined {
  if (method === 'elicitation/create') {
    const declared = capabilities.elicitation;
    if (!isPlainObject(declared)) return { elicitation: params.mode === 'url' ? { url: {} } : {} };
    if (params.mode === 'url') return isPlainObject(declared.url) ? undefined : { elicitation: { url: {} } };
    const formOnly = Object.keys(declared).length === 0;
    return formOnly || isPlainObject(declared.form) ? undefined : { elicitation: { form: {} } };
  }
  if (method === 'sampling/createMessage') {
    const declared = capabilities.sampling;
    if (!isPlainObject(declared)) return { sampling: params.tools === undefined ? {} : { tools: {} } };
    return params.tools === undefined || isPlainObject(declared.tools) ? undefined : { sampling: { tools: {} } };
  }
  if (method === 'roots/list') return isPlainObject(capabilities.roots) ? undefined : { roots: {} };
  return undefined;
}
