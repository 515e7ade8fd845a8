// The API reference of the documentation site (`npm run docs:api`): TypeDoc's HTML for the two public entry points,
// written into docs/public/api/ (git-ignored), which VitePress copies into the built site as /api/.
import { OptionDefaults } from 'typedoc';

/** @type {Partial<import('typedoc').TypeDocOptions>} */
export default {
  entryPoints: ['libs/mcp/src/index.ts', 'libs/mcp/src/testing/index.ts'],
  tsconfig: 'libs/mcp/tsconfig.lib.json',
  out: 'docs/public/api',
  name: '@nest-mcp/core API',
  readme: 'none',
  excludeInternal: true,
  excludePrivate: true,
  hideGenerator: true,
  // The library marks its public names with @publicApi (checked by public-api.spec.ts).
  blockTags: [...OptionDefaults.blockTags, '@publicApi'],
  // Injectable services' constructors name internal types (Nest injects them; users never call the constructors).
  validation: { notExported: false },
  // Source links name the repository itself, so a clone whose `origin` is a fork, a mirror or absent still builds
  // (TypeDoc otherwise warns that it cannot read the remote, an error here).
  sourceLinkTemplate: 'https://github.com/nest-mcp/nest-mcp/blob/{gitRevision}/{path}#L{line}',
  treatWarningsAsErrors: true,
};
