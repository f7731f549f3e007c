// Jest runs Vigil as CommonJS. NestJS 12 and a few other dependencies ship only as ES modules,
// so they are compiled too; `import.meta.url` has no CommonJS form and is rewritten first.
const { createTransformer } = require('@swc/jest');

const swc = createTransformer({
  jsc: {
    parser: { syntax: 'typescript', decorators: true, dynamicImport: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'commonjs', ignoreDynamic: false },
  sourceMaps: 'inline',
});

const IMPORT_META_URL = /import\.meta\.url/g;
// ESM code that builds its own `require` (e.g. @nestjs/swagger's swagger-ui) would shadow the
// CommonJS one the compiled imports use; in CommonJS the native `require` does the same job.
const OWN_REQUIRE = /^\s*const require = createRequire\(import\.meta\.url\);\s*$/m;

module.exports = {
  ...swc,
  process(source, path, options) {
    const patched = source.includes('import.meta')
      ? source.replace(OWN_REQUIRE, '').replace(IMPORT_META_URL, "require('node:url').pathToFileURL(__filename).href")
      : source;
    return swc.process(patched, path, options);
  },
  getCacheKey(source, path, options) {
    return swc.getCacheKey(source, path, options) + ':import-meta-v2';
  },
};
