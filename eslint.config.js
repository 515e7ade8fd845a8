// Lint of the whole monorepo (typescript-eslint's recommended rules); formatting is prettier's job.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'bench/rekog/**',
      'coverage/**',
      'docs/.vitepress/cache/**',
      'docs/public/api/**',
      '.docs-snippets/**',
      '.venv/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.mts'],
    rules: {
      // Unused names are errors, except the `_name` convention for deliberately ignored ones.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', destructuredArrayIgnorePattern: '^_' },
      ],
      // Nest's decorators and DI need classes whose bodies are empty or only a constructor.
      '@typescript-eslint/no-extraneous-class': 'off',
      // The sanitisers (store keys, client text in messages and logs) match control characters on purpose.
      'no-control-regex': 'off',
    },
  },
  {
    // The explorer's page script brings TypeScript's DOM lib into the library's program; the rest runs on Node.
    files: ['libs/mcp/src/**/*.ts'],
    ignores: ['libs/mcp/src/transports/http/explorer/explorer.client.ts'],
    rules: { 'no-restricted-globals': ['error', 'document', 'window', 'location', 'localStorage', 'sessionStorage'] },
  },
  {
    // Tests and benchmarks read untyped JSON answers all the time.
    files: ['test/**', 'bench/**', '**/*.spec.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        Buffer: 'readonly',
        fetch: 'readonly',
      },
    },
  },
);
