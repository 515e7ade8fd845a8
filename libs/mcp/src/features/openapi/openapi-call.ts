import { Logger } from '@nestjs/common';
import { callerHeadersOf } from '../../core/caller-headers.js';
import { McpToolError } from '../../core/errors/mcp-tool.error.js';
import type { McpToolContext } from '../../core/mcp-tool-context.interface.js';
import type { McpToolHandler } from '../../execution/mcp-callable-tool.interface.js';
import { routeAnswerError, routeServerError } from '../routes/route-outcome.js';
import { BodyTooLargeError, readBoundedText } from '../../core/bounded-text.js';
import type { McpOpenApiSource } from '../../options/mcp-openapi-options.interface.js';
import type { OutboundCredential } from '../../auth/outbound/outbound-credential.js';
import type { OpenApiOperationPlan } from './openapi-operations.js';
import { fetchWithinOrigin, RedirectNotFollowed } from './openapi-redirects.js';
import { credentialValues, withoutCredentials } from '../../auth/outbound/sent-credentials.js';
import { refusal } from '../../execution/validation/refusal.js';

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
 * 5xx → INTERNAL_ERROR without details (so is a redirect to another origin, in a loop or past 5, not followed); no answer in time → TIMEOUT, no connection → UNAVAILABLE (both
 * retryable), a body over `maxResponseBytes` → RESPONSE_TOO_LARGE (read no further).
 */
export function openApiHandler(plan: OpenApiOperationPlan, settings: OpenApiCallSettings): McpToolHandler {
  const argumentNames = new Set(plan.arguments.map((argument) => argument.name));
  return async (values, context) => {
    const request = await requestOf(plan, settings, values as Record<string, unknown>, context);
    const timeout = AbortSignal.timeout(settings.timeoutMs);
    let response: Response;
    try {
      ({ response } = await fetchWithinOrigin(request.url, { ...request.init, signal: AbortSignal.any([context.signal, timeout]) }));
    } catch (error) {
      if (error instanceof RedirectNotFollowed) {
        logger.warn(`${plan.site} answered ${error.message}`);
        throw routeServerError(error.status);
      }
      throw failure(error, plan.site, settings.timeoutMs, timeout, context.signal);
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
      throw failure(error, plan.site, settings.timeoutMs, timeout, context.signal);
    }
    if (response.ok) return parsed(text, response.headers.get('content-type'));
    // Its refusal becomes our caller's message: without the credentials this server sent (an API repeating its key).
    const body = parsed(withoutCredentials(text, request.credentials), response.headers.get('content-type'));
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
): Promise<{ url: URL; init: RequestInit; credentials: ReadonlySet<string> }> {
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
        // Each would reach another path than the template's, maybe an operation `include` left out: `/items/{id}`
        // with "" is `/items/`, and URL parsing climbs out with `..` (`/items/..` is `/`, `%2e%2e` too).
        if (text === '' || text === '.' || text === '..' || /^%2e(%2e)?$/i.test(text))
          throw invalidArgument(argument.name, 'may not be empty, "." or ".."');
        path = path.replaceAll(`{${argument.name}}`, encodedSegment(text, argument.name));
        break;
      }
      case 'query':
        for (const item of Array.isArray(value) ? value : [value]) query.append(argument.name, scalarText(item));
        break;
      case 'header': {
        const text = scalarText(value);
        // fetch refuses such a value only when sending, which would read as an unreachable API.
        if (!HEADER_VALUE.test(text)) throw invalidArgument(argument.name, 'may hold only Latin-1 text without control characters');
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
  const configured = lowerCased(await configuredHeaders(settings.headers, context));
  Object.assign(headers, configured);
  const authorization = await settings.credential?.authorization(callerHeadersOf(context)?.authorization);
  if (authorization !== undefined) headers.authorization = authorization;
  const payload = wholeBody !== undefined ? wholeBody : body;
  if (payload !== undefined) headers['content-type'] = 'application/json';
  const credentials = credentialValues({ ...configured, ...(authorization !== undefined && { authorization }) });
  return { url, credentials, init: { method: plan.verb, headers, ...(payload !== undefined && { body: JSON.stringify(payload) }) } };
}

/** What an HTTP header value may hold: tab, visible ASCII and Latin-1 (a byte string, without control characters). */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** A path parameter's text as one segment; a lone surrogate (valid JSON, not Unicode) cannot be percent-encoded. */
function encodedSegment(text: string, name: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    throw invalidArgument(name, 'must be well-formed Unicode text');
  }
}

function invalidArgument(name: string, problem: string): McpToolError {
  const { message, fields } = refusal([{ path: name, reasons: [`${name} ${problem}`] }]);
  return new McpToolError('VALIDATION_ERROR', message, { fields });
}

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
function failure(error: unknown, site: string, timeoutMs: number, timeout: AbortSignal, cancelled: AbortSignal): unknown {
  if (cancelled.aborted) return error;
  if (timeout.aborted) return new McpToolError('TIMEOUT', `The API did not answer within ${timeoutMs} ms.`, { retryable: true });
  logger.warn(
    `${site} could not be reached: ${error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error)}`,
  );
  return new McpToolError('UNAVAILABLE', 'The API could not be reached; retry shortly.', { retryable: true });
}
