import { Logger } from '@nestjs/common';
import { callerHeadersOf } from '../../core/caller-headers.js';
import { McpToolError } from '../../core/errors/mcp-tool.error.js';
import type { McpToolContext } from '../../core/mcp-tool-context.interface.js';
import type { McpToolHandler } from '../../execution/mcp-callable-tool.interface.js';
import { routeAnswerError, routeServerError } from '../routes/route-outcome.js';
import { BodyTooLargeError, readBoundedText } from '../../core/bounded-text.js';
import type { McpOpenApiSource } from './mcp-openapi-options.interface.js';
import type { OutboundCredential } from '../../auth/outbound/outbound-credential.js';
import type { OpenApiOperationPlan } from './openapi-operations.js';

/** What one source's calls need, resolved at boot. */
export interface OpenApiCallSettings {
  /** Absolute, without a trailing slash. */
  readonly baseUrl: string;
  /** The credential of each request (the caller's forwarded, exchanged for it, or this server's own); none when unset. */
  readonly credential?: OutboundCredential;
  readonly headers?: McpOpenApiSource['headers'];
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
}

const logger = new Logger('McpModule');

/**
 * A tool handler that makes the operation's HTTP request (Node's fetch) with the validated arguments: path
 * parameters in the path, query and header parameters, the body properties as a JSON body; the configured headers
 * and the source's credential (`auth`, or the caller's `Authorization` when forwarding) over them. The answer maps as a controller route's does:
 * 2xx → `data` (parsed JSON, else the text), 4xx → the code of its status (ValidationPipe's messages as `fields`),
 * 5xx → INTERNAL_ERROR without details (so is a redirect to another origin, not followed); no answer in time → TIMEOUT, no connection → UNAVAILABLE (both
 * retryable), a body over `maxResponseBytes` → RESPONSE_TOO_LARGE (read no further).
 */
export function openApiHandler(plan: OpenApiOperationPlan, settings: OpenApiCallSettings): McpToolHandler {
  const argumentNames = new Set(plan.arguments.map((argument) => argument.name));
  return async (values, context) => {
    const request = await requestOf(plan, settings, values as Record<string, unknown>, context);
    const timeout = AbortSignal.timeout(settings.timeoutMs);
    let response: Response;
    try {
      response = await fetchFollowingSameOrigin(request.url, request.init, AbortSignal.any([context.signal, timeout]), plan);
    } catch (error) {
      if (error instanceof CrossOriginRedirect) throw routeServerError(error.status);
      throw failure(error, plan, settings, timeout, context);
    }
    let text: string;
    try {
      text = await readBoundedText(response.body, settings.maxResponseBytes, response.headers.get('content-length'));
    } catch (error) {
      if (error instanceof BodyTooLargeError)
        throw new McpToolError(
          'RESPONSE_TOO_LARGE',
          `The API's answer is larger than ${settings.maxResponseBytes} bytes; it was not read.`,
        );
      throw failure(error, plan, settings, timeout, context);
    }
    const body = parsed(text, response.headers.get('content-type'));
    if (response.ok) return body;
    if (response.status >= 500) {
      logger.warn(`${plan.site} answered HTTP ${response.status}`);
      throw routeServerError(response.status);
    }
    throw routeAnswerError(response.status, body, argumentNames) ?? routeServerError(response.status);
  };
}

async function requestOf(
  plan: OpenApiOperationPlan,
  settings: OpenApiCallSettings,
  values: Record<string, unknown>,
  context: McpToolContext,
): Promise<{ url: URL; init: RequestInit }> {
  let path = plan.path;
  const query = new URLSearchParams();
  const headers: Record<string, string> = { accept: 'application/json' };
  let body: Record<string, unknown> | undefined;
  let wholeBody: unknown;
  for (const argument of plan.arguments) {
    const value = values[argument.name];
    if (value === undefined) continue;
    switch (argument.in) {
      case 'path': {
        const text = scalarText(value);
        // URL parsing would climb out of the template's path (`/tickets/..` is `/`, `%2e%2e` too).
        if (text === '.' || text === '..' || /^%2e(%2e)?$/i.test(text)) throw invalidArgument(argument.name, 'may not be "." or ".."');
        path = path.replaceAll(`{${argument.name}}`, encodeURIComponent(text));
        break;
      }
      case 'query':
        for (const item of Array.isArray(value) ? value : [value]) query.append(argument.name, scalarText(item));
        break;
      case 'header': {
        const text = scalarText(value);
        if (/[\r\n\0]/.test(text)) throw invalidArgument(argument.name, 'may not hold a line break');
        headers[argument.name.toLowerCase()] = text;
        break;
      }
      case 'body-property':
        (body ??= {})[argument.name] = value;
        break;
      case 'body':
        wholeBody = value;
        break;
    }
  }
  const url = new URL(settings.baseUrl + path);
  for (const [name, value] of query) url.searchParams.append(name, value);
  Object.assign(headers, lowerCased(await configuredHeaders(settings.headers, context)));
  const authorization = await settings.credential?.authorization(callerHeadersOf(context)?.authorization);
  if (authorization !== undefined) headers.authorization = authorization;
  const payload = wholeBody !== undefined ? wholeBody : body;
  if (payload !== undefined) headers['content-type'] = 'application/json';
  return { url, init: { method: plan.verb, headers, ...(payload !== undefined && { body: JSON.stringify(payload) }) } };
}

/** How many redirects within the API's origin a request follows. */
const MAX_REDIRECTS = 5;

/** A redirect to another origin: not followed, so configured credentials (`X-API-Key`…) never leave for it. */
class CrossOriginRedirect extends Error {
  constructor(readonly status: number) {
    super('cross-origin redirect');
  }
}

/**
 * fetch, following redirects only within the origin of the request: fetch itself drops `Authorization` on a
 * cross-origin redirect but would carry every other header (a configured API key) to wherever the API points.
 * 303, and 301/302 after a POST, continue as a GET without body, as fetch does.
 */
async function fetchFollowingSameOrigin(url: URL, init: RequestInit, signal: AbortSignal, plan: OpenApiOperationPlan): Promise<Response> {
  let current = url;
  let currentInit = init;
  for (let hop = 0; ; hop++) {
    const response = await fetch(current, { ...currentInit, redirect: 'manual', signal });
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || location === null) return response;
    await response.body?.cancel().catch(() => undefined);
    const next = new URL(location, current);
    if (next.origin !== url.origin || hop >= MAX_REDIRECTS) {
      logger.warn(
        `${plan.site} answered HTTP ${response.status} to ${next.origin}${next.pathname}: not followed (another origin, or too many redirects)`,
      );
      throw new CrossOriginRedirect(response.status);
    }
    if (response.status === 303 || ((response.status === 301 || response.status === 302) && currentInit.method === 'POST')) {
      const headers = { ...(currentInit.headers as Record<string, string>) };
      delete headers['content-type'];
      currentInit = { ...currentInit, method: 'GET', headers, body: undefined };
    }
    current = next;
  }
}

const invalidArgument = (name: string, problem: string) =>
  new McpToolError('VALIDATION_ERROR', `Invalid arguments: ${name} ${problem}`, { fields: [name] });

async function configuredHeaders(headers: OpenApiCallSettings['headers'], context: McpToolContext): Promise<Record<string, string>> {
  if (typeof headers !== 'function') return headers ?? {};
  return (
    (await headers({ tenant: context.tenant, ...(context.principal?.subject !== undefined && { subject: context.principal.subject }) })) ??
    {}
  );
}

const lowerCased = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));

/** A value in a path, query or header: strings and numbers as they are, anything else as JSON. */
const scalarText = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);

/** JSON when the answer says so (or looks like it), else the text; nothing → null. */
function parsed(text: string, contentType: string | null): unknown {
  if (text === '') return null;
  if (contentType !== null && !/json/i.test(contentType)) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** A request that got no answer: the caller's cancellation as is, else TIMEOUT or UNAVAILABLE (logged, without the cause sent). */
function failure(
  error: unknown,
  plan: OpenApiOperationPlan,
  settings: OpenApiCallSettings,
  timeout: AbortSignal,
  context: McpToolContext,
): unknown {
  if (context.signal.aborted) return error;
  if (timeout.aborted) return new McpToolError('TIMEOUT', `The API did not answer within ${settings.timeoutMs} ms.`, { retryable: true });
  logger.warn(
    `${plan.site} could not be reached: ${error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error)}`,
  );
  return new McpToolError('UNAVAILABLE', 'The API could not be reached; retry shortly.', { retryable: true });
}
