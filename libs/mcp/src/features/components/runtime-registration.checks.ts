import type { McpBootErrorDetail } from '../../core/errors/boot-errors.js';
import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { closestName } from '../../options/closest-name.js';

/** The messages a registration's first checks need (every runtime registry's messages file has them). */
interface RegistrationMessages {
  notAnObject(method: string): McpBootErrorDetail;
  unknownKey(site: string, key: string, closest: string | undefined): McpBootErrorDetail;
}

/** A runtime registration must be an object: the check every registry's `register` / `replace` starts with. */
export function assertRegistrationObject(
  messages: RegistrationMessages,
  method: string,
  registration: unknown,
): asserts registration is object {
  if (typeof registration !== 'object' || registration === null) throw new McpConfigurationError(messages.notAnObject(method));
}

/** Every key of a registration must be one the registry knows; the error suggests the closest known key. */
export function assertKnownKeys(messages: RegistrationMessages, site: string, registration: object, keys: readonly string[]): void {
  for (const key of Object.keys(registration)) {
    if (!keys.includes(key)) throw new McpConfigurationError(messages.unknownKey(site, key, closestName(key, keys)));
  }
}
