import { HttpException } from '@nestjs/common';
import { STATUS_CODES } from 'node:http';
import { errorCodeForHttpStatus } from '../../core/errors/error-codes.js';
import { McpToolError } from '../../core/errors/mcp-tool.error.js';
import { refusal } from '../../execution/validation/refusal.js';

/** A route's 5xx answer: the call ends as INTERNAL_ERROR (logged, nothing of it sent to the caller). */
class RouteServerError extends Error {}

/**
 * What a route's failure becomes for the MCP caller: a 4xx `HttpException` (or a 4xx a filter wrote) is an
 * `McpToolError` coded by status (400 and 422 VALIDATION_ERROR with the fields `ValidationPipe` names, 401
 * UNAUTHORIZED, 403 FORBIDDEN, 404 NOT_FOUND, 409 CONFLICT, 429 RATE_LIMITED, another 4xx its reason phrase); a 5xx
 * or anything else is thrown on, so the call runner answers INTERNAL_ERROR without details.
 */
export function routeFailure(error: unknown, argumentNames: ReadonlySet<string>): unknown {
  if (!(error instanceof HttpException)) return error;
  return routeAnswerError(error.getStatus(), error.getResponse(), argumentNames) ?? error;
}

/** The error of a status and body REST would have sent; undefined for a 5xx (the caller learns nothing of it). */
export function routeAnswerError(status: number, body: unknown, argumentNames: ReadonlySet<string>): McpToolError | undefined {
  if (status >= 500 || status < 400) return undefined;
  const messages = messagesOf(body);
  const message = messages.length > 0 ? messages.join('; ') : (STATUS_CODES[status] ?? `HTTP ${status}`);
  if (status === 400 || status === 422) return validationError(messages, message, argumentNames);
  return new McpToolError(codeOf(status), message);
}

/** A 5xx a filter wrote, as an error the runner logs and answers as INTERNAL_ERROR. */
export function routeServerError(status: number): Error {
  return new RouteServerError(`The route answered HTTP ${status}`);
}

/** The catalogue's code for the status, else its reason phrase in capitals (`410` → `GONE`). */
function codeOf(status: number): string {
  const listed = errorCodeForHttpStatus(status);
  if (listed !== 'REQUEST_REJECTED') return listed;
  const reason = STATUS_CODES[status];
  return reason
    ? reason
        .toUpperCase()
        .replace(/[^A-Z0-9]+/g, '_')
        .replace(/^_|_$/g, '')
    : listed;
}

/** `message` of a Nest error body (a string, or ValidationPipe's list), or the body itself when a string. */
function messagesOf(body: unknown): string[] {
  if (typeof body === 'string') return [body];
  const message = (body as { message?: unknown } | null | undefined)?.message;
  if (typeof message === 'string') return [message];
  if (Array.isArray(message)) return message.filter((item): item is string => typeof item === 'string');
  return [];
}

/** A 400 or 422 as the refusal of a tool's own validation: `Invalid arguments: <path>: <reason>; …`, `fields` the paths. */
function validationError(messages: readonly string[], fallback: string, argumentNames: ReadonlySet<string>): McpToolError {
  const failures = new Map<string, string[]>();
  for (const message of messages.length > 0 ? messages : [fallback]) {
    const path = pathOf(message, argumentNames);
    failures.set(path, [...(failures.get(path) ?? []), message]);
  }
  const { message, fields } = refusal([...failures].map(([path, reasons]) => ({ path, reasons })));
  return new McpToolError('VALIDATION_ERROR', message, { fields });
}

/**
 * The argument a ValidationPipe message names: class-validator starts each with the property path
 * (`requester.email must be an email`, `each value in tags must …`); a message that starts otherwise (a custom one)
 * names none (the empty path).
 */
function pathOf(message: string, argumentNames: ReadonlySet<string>): string {
  // `each: true` rules say `each value in tags must …`.
  const path = /^(?:each value in )?([\w$]+(?:[.[][\w$\]]*)*)\s/.exec(message)?.[1];
  const root = path?.split(/[.[]/)[0];
  return path && root && argumentNames.has(root) ? path : '';
}
