// class-transformer publishes no typings for its CommonJS build paths; this is the same storage `@Type()` writes to
// when the package resolves to `cjs/index.js` (Node ESM and Jest both follow its `main` field).
declare module 'class-transformer/cjs/storage.js' {
  export { defaultMetadataStorage } from 'class-transformer/types/storage.js';
}
