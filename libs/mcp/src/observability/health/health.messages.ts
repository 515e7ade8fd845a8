import { bootErrors } from '../../core/errors/boot-errors.js';

/** The health indicator's configuration errors (see `docs/errors.md`). */
export const McpHealthMessages = bootErrors({
  invalidTimeout: {
    code: 'MCP_ERR_HEALTH_TIMEOUT_INVALID',
    message: (timeoutMs: unknown) => `McpHealthIndicator.isHealthy: timeoutMs must be a positive integer, got ${String(timeoutMs)}`,
    fix: 'Pass a whole number of milliseconds above 0.',
    shown: { timeoutMs: 'value' },
  },
});
