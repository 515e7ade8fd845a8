/** Bounds on the shape of one incoming JSON value. */
export interface JsonLimits {
  maxDepth: number;
  maxCollectionSize: number;
}

/** The first bound a value breaks, or undefined; iterative, so hostile nesting cannot overflow the stack. */
export function violatedJsonLimit(value: unknown, limits: JsonLimits): string | undefined {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 1 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (depth > limits.maxDepth) return `nesting deeper than ${limits.maxDepth}`;
    const children = Array.isArray(current) ? current : Object.values(current);
    if (children.length > limits.maxCollectionSize) return `a collection larger than ${limits.maxCollectionSize}`;
    for (const child of children) if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: depth + 1 });
  }
  return undefined;
}
