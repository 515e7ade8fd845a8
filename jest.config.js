// Jest runs in ESM mode (Nest 12 is ESM-only): `node --experimental-vm-modules node_modules/jest/bin/jest.js`.
/** @type {import('jest').Config} */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  roots: ['<rootDir>/libs', '<rootDir>/apps', '<rootDir>/test'],
  testRegex: '.*\\.(spec|e2e-spec)\\.ts$',
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
