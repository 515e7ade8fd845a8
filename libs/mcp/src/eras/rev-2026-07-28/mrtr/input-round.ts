import { JsonRpcErrorCode } from '../../../core/json-rpc/json-rpc-error-codes.js';
import { McpProtocolError } from '../../../core/errors/protocol-error.js';
import { inputKeyOf } from '../../../core/input-key.js';
import { INPUT_KEY_PREFIXES, isValidInputResponse, missingCapabilityFor } from './input-responses.js';
import { McpMissingClientCapabilitySignal } from '../../../core/missing-client-capability.signal.js';
import { McpInputRequiredSignal } from './input-required.signal.js';

/** An input request as `input_required` lists it: the client request to run, without `jsonrpc` or `id`. */
export interface McpInputRequest {
  readonly method: string;
  readonly params: Record<string, unknown>;
}

/** Where input requests go once a round cannot answer them itself (a running task waits for `tasks/update`). */
export type InputDelegate = (key: string, request: McpInputRequest) => Promise<Record<string, unknown>>;

/** What one run of a handler may answer from, and how it reports an interruption. */
export interface InputRoundOptions {
  /** The `clientCapabilities` of the request: nothing else may be asked for. */
  readonly capabilities: Record<string, unknown>;
  /** Answers of earlier rounds, from a verified `requestState`. */
  readonly known?: Record<string, unknown>;
  /** This request's `inputResponses` (already checked to be an object). */
  readonly responses?: Record<string, unknown>;
  /** Runs once, when the first unanswered input request is recorded: it should cancel the call. */
  readonly onInputRequired?: () => void;
}

/**
 * One run of a handler in a multi round-trip request (2026-07-28 MRTR): its `elicit()`, `sample()` and
 * `listRoots()` calls land in {@link ask}, keyed (`withMcpInputKey`, else `elicit-<n>`...) and answered from earlier
 * rounds or `inputResponses`. An unanswered one interrupts the handler and the request answers `input_required`;
 * handlers rerun from the start each round. The outcome is read from the recorded state, so a handler that catches
 * the interruption cannot turn a pending round into a complete result.
 */
export class McpInputRound {
  /** Unanswered input requests, by key, in call order. */
  readonly asked = new Map<string, McpInputRequest>();
  /** Answers the handler used in this run (what the next `requestState` carries). */
  readonly used: Record<string, unknown> = {};
  /** Capabilities the handler needed and the request did not declare (a `ClientCapabilities` fragment). */
  missing?: Record<string, Record<string, unknown>>;
  /** Key of an answer that does not have the shape of its result type. */
  invalidKey?: string;
  /** Once set, unanswered requests are handed to it instead of interrupting the handler. */
  delegate?: InputDelegate;
  private calls = 0;
  private interrupted = false;

  constructor(private readonly options: InputRoundOptions) {}

  /** -32602 when an answer did not have the shape of its input request's result. */
  assertAnswersValid(): void {
    if (this.invalidKey === undefined) return;
    throw new McpProtocolError(
      JsonRpcErrorCode.INVALID_PARAMS,
      `Invalid params: inputResponses.${this.invalidKey} does not have the shape its input request expects`,
    );
  }

  /** The `askClient` hook of the request context. */
  readonly ask = async (method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const key = inputKeyOf(params) ?? `${INPUT_KEY_PREFIXES[method] ?? 'input'}-${++this.calls}`;
    if (inputKeyOf(params) !== undefined) this.calls++;
    const answer = this.answerFor(key);
    if (answer !== undefined) {
      if (!isValidInputResponse(method, answer)) {
        this.invalidKey ??= key;
        return this.interrupt(key);
      }
      this.used[key] = answer;
      return answer as Record<string, unknown>;
    }
    const missing = missingCapabilityFor(method, params, this.options.capabilities);
    if (missing) {
      this.missing = mergeCapabilities(this.missing ?? {}, missing);
      throw new McpMissingClientCapabilitySignal(missing);
    }
    const request: McpInputRequest = { method, params: { ...params } };
    if (this.delegate) return this.delegate(key, request);
    this.asked.set(key, request);
    return this.interrupt(key);
  };

  /** True when the run ended waiting for the client (new input requests or a malformed answer). */
  get interruptedRun(): boolean {
    return this.interrupted;
  }

  private answerFor(key: string): unknown {
    if (this.options.known && Object.hasOwn(this.options.known, key)) return this.options.known[key];
    if (this.options.responses && Object.hasOwn(this.options.responses, key)) return this.options.responses[key];
    return undefined;
  }

  private interrupt(key: string): never {
    if (!this.interrupted) {
      this.interrupted = true;
      this.options.onInputRequired?.();
    }
    throw new McpInputRequiredSignal(key);
  }
}

function mergeCapabilities(
  into: Record<string, Record<string, unknown>>,
  add: Record<string, unknown>,
): Record<string, Record<string, unknown>> {
  for (const [name, value] of Object.entries(add)) into[name] = { ...(into[name] ?? {}), ...(value as Record<string, unknown>) };
  return into;
}
