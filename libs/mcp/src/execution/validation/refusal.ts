import { clientText, clientTextList } from '../../core/client-text.js';
import type { PlanFailure as Failure } from './validation-plan.compiler.js';

/** Failures named in one answer, and the length of each (a path and its reasons). */
export const MAX_LISTED_FAILURES = 10;
export const MAX_FAILURE_CHARACTERS = 200;

/**
 * The refusal naming `failures` (at least one): the paths in `fields`, each path with its reasons in the message.
 * Paths and some reasons ("property <name> should not exist") carry the client's own keys: bounded. A failure of
 * the whole value (empty path) is named in the message only.
 */
export function refusal(failures: readonly Failure[]): { valid: false; fields: string[]; message: string } {
  return {
    valid: false,
    fields: failures
      .filter((failure) => failure.path !== '')
      .slice(0, MAX_LISTED_FAILURES)
      .map((failure) => clientText(failure.path)),
    message: `Invalid arguments: ${clientTextList(
      failures.map((failure) => (failure.path === '' ? failure.reasons.join('; ') : `${failure.path}: ${failure.reasons.join('; ')}`)),
      MAX_LISTED_FAILURES,
      MAX_FAILURE_CHARACTERS,
    )}`,
  };
}

/** An argument the schema does not have, said as class-validator's forbidNonWhitelisted says it. */
export function unknownProperty(name: string): Failure {
  return { path: name, reasons: [`property ${name} should not exist`] };
}
