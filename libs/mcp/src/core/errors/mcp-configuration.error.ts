/**
 * Thrown at boot for misconfiguration (bad options, duplicate or malformed tool names, untyped arguments):
 * the message names the place and the fix.
 * @publicApi
 */
export class McpConfigurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'McpConfigurationError';
  }
}
