import { jest } from '@jest/globals';
import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { resolveMcpOptions, resolvePaths } from '../../options/mcp-options.resolver.js';
import type { McpModuleOptions } from '../../options/mcp-module-options.interface.js';
import { loadOtelApi, type McpOtelApi } from './otel-api.loader.js';

/** What Node rejects `import()` of a package that is not installed with. */
const notInstalled = () =>
  Promise.reject(Object.assign(new Error("Cannot find package '@opentelemetry/api'"), { code: 'ERR_MODULE_NOT_FOUND' }));

describe('loadOtelApi', () => {
  it('loads the installed @opentelemetry/api', async () => {
    const api = await loadOtelApi(true);
    expect(typeof api?.trace.getTracer).toBe('function');
    expect(api?.SpanKind.SERVER).toBeDefined();
  });

  it('without the package and without tracing.enabled: no tracing, no error', async () => {
    await expect(loadOtelApi(false, notInstalled as () => Promise<McpOtelApi>)).resolves.toBeUndefined();
  });

  it('without the package but tracing.enabled true: a boot error naming the option and the fix', async () => {
    const error = await loadOtelApi(true, notInstalled as () => Promise<McpOtelApi>).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(McpConfigurationError);
    expect((error as Error).message).toContain('"observability.tracing.enabled" is true but @opentelemetry/api is not installed');
    expect((error as Error).message).toContain('npm install @opentelemetry/api');
  });

  it('any other import failure is not hidden', async () => {
    const broken = jest.fn(() => Promise.reject(new SyntaxError('Unexpected token')));
    await expect(loadOtelApi(false, broken as () => Promise<McpOtelApi>)).rejects.toThrow(SyntaxError);
  });
});

describe('resolveMcpOptions: tracing', () => {
  const resolve = (tracing: unknown) =>
    resolveMcpOptions({ name: 'traced', version: '1.0.0', observability: { tracing } } as McpModuleOptions, resolvePaths({})).observability
      .tracing;

  it('defaults to on when the package is there, without requiring it', () => {
    expect(resolve(undefined)).toEqual({ enabled: true, required: false });
    expect(resolve({})).toEqual({ enabled: true, required: false });
  });

  it('enabled: true requires the package; enabled: false turns it off', () => {
    expect(resolve({ enabled: true })).toEqual({ enabled: true, required: true });
    expect(resolve({ enabled: false })).toEqual({ enabled: false, required: false });
  });

  it.each([
    [true, '"observability.tracing" must be an object such as { enabled: true }'],
    [{ enabled: 'yes' }, '"observability.tracing.enabled" must be a boolean, got yes'],
    [{ enable: true }, 'did you mean "observability.tracing.enabled"?'],
  ])('%j fails the boot', (tracing, message) => {
    expect(() => resolve(tracing)).toThrow(McpConfigurationError);
    expect(() => resolve(tracing)).toThrow(message);
  });
});
