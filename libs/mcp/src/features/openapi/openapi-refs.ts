/** A `$ref` that points nowhere in the document, or outside it. */
export class OpenApiReferenceError extends Error {}

/** How many `$ref`s may chain (`$ref` to a `$ref` …) before the chain counts as a loop. */
const MAX_REF_CHAIN = 16;

/**
 * The node a local `$ref` (`#/components/schemas/Pet`) points to. References to other files or URLs are not
 * followed: a document served by an API is one file.
 */
export function resolveRef(document: Record<string, unknown>, ref: string): unknown {
  if (!ref.startsWith('#'))
    throw new OpenApiReferenceError(`the reference ${ref} points outside the document (only #/… references are followed)`);
  let node: unknown = document;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key))
      throw new OpenApiReferenceError(`can't resolve the reference ${ref}`);
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

export const refOf = (value: unknown): string | undefined => {
  const ref = typeof value === 'object' && value !== null ? (value as { $ref?: unknown }).$ref : undefined;
  return typeof ref === 'string' ? ref : undefined;
};

/** A parameter, request body or response object with its `$ref` (and the `$ref`s it leads to) followed. */
export function derefObject(document: Record<string, unknown>, value: unknown): unknown {
  let node = value;
  for (let hops = 0; hops < MAX_REF_CHAIN; hops++) {
    const ref = refOf(node);
    if (ref === undefined) return node;
    node = resolveRef(document, ref);
  }
  throw new OpenApiReferenceError(`the reference ${String(refOf(value))} leads to a loop of references`);
}
