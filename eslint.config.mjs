// Lint: the layering of DESIGN.md, checked by rule rather than memory (as VS Code does with its layers).
//   shared/   imports nothing outside shared/, no node:* and no DOM-only modules
//   renderer/ imports shared/ and itself only
//   only main/app/ (and the sandboxed preload) import `electron`
// Inside main/ (each folder a layer; a later rule for the same files replaces an earlier one, so each lists all):
//   db/       imports only shared/ and the host helpers (engine/process-alive, engine/package-root)
//   agents/   are used by simulation and judges alike, and import neither
//   domains   (db, rows, datasets, agents, sim, judges, json-schema, stats-workers, labels, sweeps, verdicts, sync,
//             conformance, training)
//             never import the engine's handlers, the CLI or the Electron shell
//   cli/      imports only the engine's entry (engine/index), its transports and shared/
// Everywhere: zod only through shared/schema/zod.ts (named builders, so bundles leave out the rest of zod)
import tseslint from 'typescript-eslint';

const electron = { name: 'electron', message: 'Only main/app/ (and preload/) may import electron.' };
// zod's own `z` holds all of zod, and a bundle that imports it keeps all of it: shared/schema/zod.ts names what is used.
const zodDirect = { name: 'zod', message: 'Import z from shared/schema/zod.ts (it names the builders used, so bundles leave out the rest of zod).' };
const sqliteDirect = {
  name: 'better-sqlite3',
  allowTypeImports: true,
  message: 'Reach better-sqlite3 through main/db/sqlite.ts (loaded by require when the first connection opens); type imports are fine.',
};
/** What no file of main/ imports directly. */
const mainPaths = [electron, zodDirect, sqliteDirect];
const nodeBuiltins = [{ group: ['node:*'], message: 'shared/ and renderer/ run everywhere: no Node built-ins.' }];
const aboveDomains = { group: ['**/engine/handlers/**', '**/cli/**', '**/app/**'], message: 'A domain never imports the engine\'s handlers, the CLI or the Electron shell: the engine calls the domain, not the other way.' };
const DOMAINS = ['db', 'rows', 'datasets', 'agents', 'sim', 'judges', 'json-schema', 'stats-workers', 'labels', 'sweeps', 'verdicts', 'sync', 'conformance', 'training'];
const aboveDb = {
  group: ['**/engine/**', '!**/engine/process-alive', '!**/engine/package-root', ...DOMAINS.filter((d) => d !== 'db').map((d) => `**/${d}/**`)],
  message: 'The database layer imports only shared/ and the host helpers (engine/process-alive, engine/package-root).',
};
const agentsLayer = { group: ['**/sim/**', '**/judges/**'], message: 'Agents are used by simulation and judges alike, and import neither.' };
const cliLayer = {
  group: ['**/engine/*', '!**/engine/index', '!**/engine/transports', '**/engine/handlers/**', ...DOMAINS.map((d) => `**/${d}/**`), '**/app/**'],
  message: 'The CLI is a client of the engine: it imports only main/engine/index (the entry), its transports and shared/.',
};

/** shared/'s rule for a file `depth` folders below shared/ (1: shared/api/x.ts): nothing outside shared/, no Node. */
function sharedImports(depth, { zod = false } = {}) {
  const up = (n) => `${'../'.repeat(n)}*`;
  return [
    'error',
    {
      paths: [electron, ...(zod ? [] : [zodDirect]), 'fs', 'path', 'os', 'child_process', 'worker_threads', 'crypto'],
      patterns: [...nodeBuiltins, { group: [up(depth + 1), up(depth + 2), '**/main/**', '**/renderer/**', '**/preload/**'], message: 'shared/ imports nothing outside shared/.' }],
    },
  ];
}

export default tseslint.config(
  { ignores: ['out/**', 'node_modules/**', 'native/**', '.tmp/**', 'test/**/*.mjs', 'bin/**', 'scripts/**'] },
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parser: tseslint.parser, parserOptions: { ecmaVersion: 'latest', sourceType: 'module' } },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      'no-restricted-imports': ['error', { paths: [electron, zodDirect] }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-debugger': 'error',
    },
  },
  { files: ['shared/**/*.ts'], rules: { 'no-restricted-imports': sharedImports(1) } },
  // A folder inside a folder of shared/ (stats/registry/) reaches shared/ itself with ../../
  { files: ['shared/*/*/**/*.ts'], rules: { 'no-restricted-imports': sharedImports(2) } },
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electron, zodDirect],
          patterns: [...nodeBuiltins, { group: ['**/main/**', '**/preload/**'], message: 'renderer/ talks to the engine only through the typed API in shared/.' }],
        },
      ],
    },
  },
  {
    files: ['main/engine/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: mainPaths }] },
  },
  {
    files: DOMAINS.map((d) => `main/${d}/**/*.ts`),
    rules: { 'no-restricted-imports': ['error', { paths: mainPaths, patterns: [aboveDomains] }] },
  },
  {
    files: ['main/agents/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: mainPaths, patterns: [aboveDomains, agentsLayer] }] },
  },
  {
    files: ['main/db/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: mainPaths, patterns: [aboveDomains, aboveDb] }] },
  },
  {
    files: ['main/cli/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: mainPaths, patterns: [cliLayer] }] },
  },
  {
    files: ['main/app/**/*.ts', 'preload/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [zodDirect, sqliteDirect] }] },
  },
  {
    // The one door to zod; otherwise under shared/'s rules.
    files: ['shared/schema/zod.ts'],
    rules: { 'no-restricted-imports': sharedImports(1, { zod: true }) },
  },
);
