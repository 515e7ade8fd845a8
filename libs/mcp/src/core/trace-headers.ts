/** The W3C Trace Context and Baggage headers a transport passes on to tracing. */
const TRACE_HEADER_NAMES = ['traceparent', 'tracestate', 'baggage'] as const;

/** The trace headers among a message's transport headers (by lower-case name), or undefined when it has none. */
export function traceHeadersFrom(header: (name: string) => string | undefined): Readonly<Record<string, string>> | undefined {
  return headersNamed(TRACE_HEADER_NAMES, header);
}

/** The headers of `names` that `header` finds (lower-case names), or undefined when it finds none. */
export function headersNamed(
  names: readonly string[],
  header: (name: string) => string | undefined,
): Readonly<Record<string, string>> | undefined {
  let found: Record<string, string> | undefined;
  for (const name of names) {
    const value = header(name);
    if (value !== undefined) (found ??= {})[name] = value;
  }
  return found;
}
