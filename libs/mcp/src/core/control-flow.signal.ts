import { IntrinsicException } from '@nestjs/common';

/**
 * Base of errors that steer the protocol rather than report a failure (e.g. "this call needs input from the
 * client first"): the tool runner lets them through instead of turning them into an `INTERNAL_ERROR` envelope,
 * and nobody logs them (Nest skips intrinsic exceptions too).
 */
export class McpControlFlowSignal extends IntrinsicException {}
