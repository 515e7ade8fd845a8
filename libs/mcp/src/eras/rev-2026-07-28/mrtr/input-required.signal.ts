import { McpControlFlowSignal } from '../../../core/control-flow.signal.js';

/**
 * Thrown by `context.elicit()`, `sample()` or `listRoots()` in a 2026-07-28 request the client has not answered
 * yet: the request answers `input_required` and the handler reruns on the retry. Catching it does not stop the round.
 * @publicApi
 */
export class McpInputRequiredSignal extends McpControlFlowSignal {
  constructor(readonly key: string) {
    super(`The client must answer input request "${key}" first`);
    this.name = 'McpInputRequiredSignal';
  }
}
