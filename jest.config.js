// Jest runs in ESM mode (Nest 12 is ESM-only): `node --experimental-vm-modules node_modules/jest/bin/jest.js`.
/** What both projects share: the TypeScript ESM transform and the package aliases. */
const base = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: {
    '^@nest-mcp/core$': '<rootDir>/libs/mcp/src/index.ts',
    '^@nest-mcp/core/testing$': '<rootDir>/libs/mcp/src/testing/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: '<rootDir>/tsconfig.json', isolatedModules: true }],
  },
  testTimeout: 30000,
};

/**
 * Two projects, one run: "express" is every spec (units and e2e) on Nest's default adapter; "fastify" runs the e2e
 * specs again with MCP_TEST_HTTP_ADAPTER=fastify, so every app the kit boots (test/kit/apps.ts, test/kit/boot-mcp.ts)
 * and the spawned weather server sit on @nestjs/platform-fastify. Failures are prefixed with the project's name.
 * `jest <paths> --selectProjects fastify` runs one of them: the flag takes several names, so it goes after the paths
 * (or before `--runTestsByPath`), or it swallows them and the whole project runs.
 */
/** @type {import('jest').Config} */
export default {
  testTimeout: 30000,
  // One worker (`--maxWorkers=1`: files still run one at a time), replaced once it holds more than this after a file:
  // in one process for the whole run, ESM module registries pile up (4 GB by the end) and GC slows every later file.
  workerIdleMemoryLimit: '1200MB',
  projects: [
    {
      ...base,
      displayName: 'express',
      roots: ['<rootDir>/libs', '<rootDir>/apps', '<rootDir>/test'],
      testRegex: '.*\\.(spec|e2e-spec)\\.ts$',
    },
    {
      ...base,
      displayName: 'fastify',
      roots: ['<rootDir>/test'],
      testRegex: '.*\\.e2e-spec\\.ts$',
      setupFiles: ['<rootDir>/test/kit/fastify-project.setup.ts'],
      // Specs that never reach an HTTP adapter run once, in "express": stdio transports, the build kit, the Python
      // clients and the browser-rendered card (both over the same endpoints the SDK specs cover), the Redis option wiring.
      testPathIgnorePatterns: [
        '/node_modules/',
        'stdio',
        '<rootDir>/test/kit/build\\.e2e-spec\\.ts$',
        '<rootDir>/test/docs/pack-lib\\.e2e-spec\\.ts$',
        '<rootDir>/test/clients/',
        '<rootDir>/test/apps/weather-card\\.e2e-spec\\.ts$',
        '<rootDir>/test/scaling/redis-option\\.e2e-spec\\.ts$',
        // ~70 s of nginx + kill -9 + Redis restart: what it proves (balancing, takeover, recovery) is adapter-independent,
        // and the other scaling specs already run both adapters through the same routes. On fastify:
        // `MCP_TEST_HTTP_ADAPTER=fastify jest --runTestsByPath test/scaling/chaos.e2e-spec.ts --selectProjects express`.
        '<rootDir>/test/scaling/chaos\\.e2e-spec\\.ts$',
        // Its spawned fixture server is a plain Nest app on the default adapter; what it proves lives in the store.
        '<rootDir>/test/scaling/idempotency-takeover\\.e2e-spec\\.ts$',
      ],
    },
  ],
};
