import { McpControlFlowSignal } from './control-flow.signal.js';

/**
 * Thrown by `context.elicit()`, `sample()` or `listRoots()` in a 2026-07-28 request whose client lacks the
 * capability. Uncaught, the request ends with -32021; a handler that can do without it may catch this.
 * @publicApi
 * @example
 * try {
 *   confirmed = (await context.elicit(question)).action === 'accept';
 * } catch (error) {
 *   if (!(error instanceof McpMissingClientCapabilitySignal)) throw error;
 * }
 */
export class McpMissingClientCapabilitySignal extends McpControlFlowSignal {
  constructor(readonly requiredCapabilities: Record<string, unknown>) {
    super(`The client did not declare the capability this request needs: ${Object.keys(requiredCapabilities).join(', ')}`);
    this.name = 'McpMissingClientCapabilitySignal';
  }
}
