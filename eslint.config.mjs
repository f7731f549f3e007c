import nx from '@nx/eslint-plugin';

const frameworks = ['@nestjs/*', 'typeorm', 'pg', 'kafkajs', 'express', 'passport*', 'prom-client', 'pino'];

// Who may import whom, by type tag (docs/architecture.md#where-things-live).
const constraints = [
  // Contracts are types, schemas and names: they depend on nothing of ours and no framework.
  { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: ['type:contracts'], bannedExternalImports: frameworks },
  // Domain code is pure: contracts and other domain code only.
  { sourceTag: 'type:domain', onlyDependOnLibsWithTags: ['type:domain', 'type:contracts'], bannedExternalImports: frameworks },
  // Infrastructure shared by apps; never a Kafka client (that is the messaging lib's alone).
  { sourceTag: 'type:platform', onlyDependOnLibsWithTags: ['type:platform', 'type:contracts'], bannedExternalImports: ['kafkajs'] },
  { sourceTag: 'type:messaging', onlyDependOnLibsWithTags: ['type:platform', 'type:contracts'] },
  { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:platform', 'type:messaging', 'type:contracts', 'type:domain'], bannedExternalImports: ['kafkajs'] },
  // Services: libs only, never another app, never the Kafka client.
  {
    sourceTag: 'type:app',
    onlyDependOnLibsWithTags: ['type:contracts', 'type:domain', 'type:platform', 'type:messaging'],
    bannedExternalImports: ['kafkajs'],
  },
  // The command-line client talks to Vigil over its HTTP API only: contracts (for types) and nothing else of ours.
  { sourceTag: 'type:client', onlyDependOnLibsWithTags: ['type:contracts'], bannedExternalImports: [...frameworks, 'kafkajs'] },
  // The offline verifier (tools/verify) is what an auditor runs without trusting the server: pure
  // domain code (libs/integrity) and nothing else of ours, no framework.
  { sourceTag: 'type:verifier', onlyDependOnLibsWithTags: ['type:domain'], bannedExternalImports: [...frameworks, 'kafkajs'] },
  // Repository tools (tools/*.ts: certificates, deploy checks) use the contracts library and nothing else of ours.
  { sourceTag: 'type:tooling', onlyDependOnLibsWithTags: ['type:contracts'], bannedExternalImports: [...frameworks, 'kafkajs'] },
  // The web console runs in the browser and talks to Vigil over its public HTTP API only.
  { sourceTag: 'type:console', onlyDependOnLibsWithTags: [], bannedExternalImports: [...frameworks, 'kafkajs', 'node:*'] },
  // The standalone launcher composes the services (allowed below) and platform code.
  {
    sourceTag: 'type:launcher',
    onlyDependOnLibsWithTags: ['type:platform', 'type:messaging', 'type:contracts'],
    bannedExternalImports: ['kafkajs'],
  },
];

// Tests may also use the shared test helpers (fresh databases, topic prefixes, child processes).
const testConstraints = constraints.map((c) => ({ ...c, onlyDependOnLibsWithTags: [...new Set([...c.onlyDependOnLibsWithTags, 'type:testing'])] }));

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  { ignores: ['**/dist', '**/node_modules', '**/.data', '**/tmp', 'scripts/**', '**/*.js', '**/*.mjs'] },
  {
    files: ['**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: true,
          banTransitiveDependencies: false,
          depConstraints: constraints,
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
    },
  },
  {
    // The console's React components (the rule above covers its .ts files).
    files: ['apps/console/**/*.tsx'],
    rules: {
      '@nx/enforce-module-boundaries': ['error', { enforceBuildableLibDependency: true, banTransitiveDependencies: false, depConstraints: constraints }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
    },
  },
  {
    // The CLI's sources run on Node as they are (types erased, no bundler): our libraries are
    // TypeScript behind path aliases Node cannot resolve, so only their types may be imported.
    files: ['apps/cli/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@vigil/*'], allowTypeImports: true, message: 'The CLI may import only types from our libraries (`import type`).' }] },
      ],
    },
  },
  {
    // The one composition root that may import services (their service definitions only).
    files: ['apps/standalone/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          allow: ['@vigil/service/*'],
          depConstraints: [
            { sourceTag: 'type:launcher', onlyDependOnLibsWithTags: ['type:platform', 'type:messaging', 'type:contracts'], bannedExternalImports: ['kafkajs'] },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.kafka-spec.ts', '**/*.sasl-spec.ts', '**/fixtures/**/*.ts', '**/src/testing/**/*.ts', 'bench/**/*.ts'],
    rules: {
      'no-console': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@nx/enforce-module-boundaries': ['error', { enforceBuildableLibDependency: true, depConstraints: testConstraints }],
    },
  },
  {
    // The composition root's tests: service definitions (as the launcher) and the test helpers.
    files: ['apps/standalone/**/*.spec.ts', 'apps/standalone/**/*.int-spec.ts', 'apps/standalone/**/*.kafka-spec.ts', 'apps/standalone/**/*.sasl-spec.ts', 'apps/standalone/src/testing/**/*.ts'],
    rules: {
      // ... and the offline verifier, which the integrity tests run against the live API.
      '@nx/enforce-module-boundaries': ['error', { enforceBuildableLibDependency: true, allow: ['@vigil/service/*', '@vigil/service/event-ingest/testing', '@vigil/verify'], depConstraints: testConstraints }],
    },
  },
];
