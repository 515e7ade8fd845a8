/** Boot texts of tracing, each naming the option and the fix (as `job.messages.ts` does). */
export const McpTracingMessages = {
  apiMissing: () =>
    'McpModule option "tracing.enabled" is true but @opentelemetry/api is not installed: install it (npm install @opentelemetry/api), or leave tracing.enabled unset to trace only when the package is there.',
};
