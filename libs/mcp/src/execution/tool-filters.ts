import { Catch, type ExceptionFilter } from '@nestjs/common';
import { EXCEPTION_FILTERS_METADATA } from '@nestjs/common/constants.js';

type Method = (...args: unknown[]) => unknown;

/**
 * The last filter of every tool: rethrows what the tool's own filters left, so the call runner turns it into an
 * envelope and logs it once. Without it Nest's fallback filter logs every throw, an expected `McpToolError`
 * included, at ERROR with its stack and message (which may quote client input).
 */
@Catch()
class RethrowToCallRunner implements ExceptionFilter {
  catch(exception: unknown): never {
    throw exception;
  }
}

const RETHROW = new RethrowToCallRunner();

/** What the callback of {@link toolGuardsCallback} returns: the guards admitted the call (a filter's answer is anything else). */
export const GUARDS_ADMITTED: unique symbol = Symbol('mcp:guards-admitted');

const callbacks = new WeakMap<Method, Method>();
const guardCallbacks = new WeakMap<Method, Method>();

/**
 * The function ExternalContextCreator wraps for a tool method (made once): it calls the method, carries a copy of its
 * metadata, and lists the class's and method's filters after {@link RethrowToCallRunner} (Nest tries them first).
 */
export function toolCallback(method: Method, owner: object): Method {
  return once(callbacks, method, owner, function (this: unknown, ...args: unknown[]) {
    return method.apply(this, args);
  });
}

/** The stand-in for a tool method when only its guards run: {@link toolCallback}'s metadata and filters, and no work. */
export function toolGuardsCallback(method: Method, owner: object): Method {
  return once(guardCallbacks, method, owner, () => GUARDS_ADMITTED);
}

/** `body` with `method`'s metadata copied onto it (STYLE: copy before wrapping) and the filters in call order. */
function once(cache: WeakMap<Method, Method>, method: Method, owner: object, body: Method): Method {
  const cached = cache.get(method);
  if (cached) return cached;
  for (const key of Reflect.getOwnMetadataKeys(method)) Reflect.defineMetadata(key, Reflect.getOwnMetadata(key, method), body);
  const classFilters: unknown[] = Reflect.getMetadata(EXCEPTION_FILTERS_METADATA, owner) ?? [];
  const methodFilters: unknown[] = Reflect.getOwnMetadata(EXCEPTION_FILTERS_METADATA, method) ?? [];
  Reflect.defineMetadata(EXCEPTION_FILTERS_METADATA, [RETHROW, ...classFilters, ...methodFilters], body);
  Object.defineProperty(body, 'name', { value: method.name });
  cache.set(method, body);
  return body;
}
