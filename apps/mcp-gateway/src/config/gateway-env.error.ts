/** A malformed environment variable: `main.ts` prints its message as one stderr line and exits 1 (no stack). */
export class GatewayEnvError extends Error {
  override readonly name = 'GatewayEnvError';
}
