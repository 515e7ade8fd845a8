import { bootErrors } from '../../core/errors/boot-errors.js';

/** Boot errors of tracing, each naming the option and the fix (see `docs/errors.md`). */
export const McpTracingMessages = bootErrors({
  apiMissing: {
    code: 'MCP_ERR_TRACING_API_MISSING',
    message: () =>
      'McpModule option "observability.tracing.enabled" is true but @opentelemetry/api is not installed: install it (npm install @opentelemetry/api), or leave observability.tracing.enabled unset to trace only when the package is there.',
    fix: '`npm install @opentelemetry/api`.',
  },
});
