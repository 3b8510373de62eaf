import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * The fences between layers (DESIGN.md "Layers and what each may import"; docs/conventions.md "Modules"). Each
 * layer lists what it may not import; every layer reaches another layer's context through that context's index.ts.
 * Tests, benches and the composition root (container.ts, contexts.ts, context-module.ts, main.ts) stand outside the
 * fences.
 */
const layers = ['domain', 'application', 'infrastructure', 'projections', 'api'];
const layer = (names) => `^(\\.\\./)+(${names.join('|')})/`;

/** Another layer's context, other than through its index.ts (shared folders are open). */
const throughIndexOnly = {
  regex: `${layer(layers)}(?!shared/)[a-z-]+/(?!index\\.js$)`,
  message: "import another layer's bounded context through its index.ts",
};
const notLayers = (names, why) => ({ regex: layer(names), message: why });
const notPackages = (names, why) => ({ group: names, message: why });

const fences = {
  'domain/**/*.ts': [
    notLayers(['application', 'infrastructure', 'projections', 'api'], 'the domain imports nothing outside domain/'),
    notPackages(['node:*', 'express', 'knex', 'pg', 'winston', '@nats-io/*', '@eventstore/*'], 'the domain is pure'),
  ],
  'application/**/*.ts': [
    notLayers(
      ['infrastructure', 'projections', 'api'],
      'application/ imports domain/ only (adapters come in as ports)',
    ),
    notPackages(
      ['express', 'knex', 'pg', 'winston', '@nats-io/*', '@eventstore/*'],
      'adapters live in infrastructure/',
    ),
  ],
  'projections/**/*.ts': [
    notLayers(['application', 'infrastructure', 'api'], 'projections/ import domain/ event types (and knex) only'),
  ],
  'api/**/*.ts': [
    notLayers(['domain', 'infrastructure', 'projections'], 'api/ imports application/ only (the logger is a port)'),
    notPackages(['knex', 'pg', 'winston', '@nats-io/*', '@eventstore/*'], 'api/ reaches adapters through ports'),
  ],
  'infrastructure/**/*.ts': [notLayers(['api'], 'infrastructure/ does not import the API')],
};

/** infrastructure/shared and every other `shared` folder import no context: not another layer's... */
const sharedImportsNoContext = {
  regex: `${layer(layers)}(?!shared/)`,
  message: 'a shared folder imports no bounded context',
};
/** ...nor its own layer's, from a file `depth` folders below `shared` (`../payments/` from infrastructure/shared). */
const sharedImportsNoSibling = (depth) => ({
  regex: `^(\\.\\./){${depth + 1}}(?!shared/)[a-z-]+/`,
  message: 'a shared folder imports no bounded context',
});
/** How deep the shared folders nest (infrastructure/shared/messaging/...): one block per depth. */
const sharedDepths = [0, 1, 2];

const restrict = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

export default tseslint.config(
  { ignores: ['node_modules/', '.data/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': 'off',
    },
  },
  ...Object.entries(fences).map(([files, patterns]) => ({
    files: [files],
    rules: restrict([...patterns, throughIndexOnly]),
  })),
  ...layers.flatMap((name) =>
    sharedDepths.map((depth) => ({
      files: [`${name}/shared/${'*/'.repeat(depth)}*.ts`],
      rules: restrict([
        ...fences[`${name}/**/*.ts`],
        throughIndexOnly,
        sharedImportsNoContext,
        sharedImportsNoSibling(depth),
      ]),
    })),
  ),
);
