// Lint: the layering of DESIGN.md, checked by rule rather than memory (as VS Code does with its layers).
//   shared/   imports nothing outside shared/, no node:* and no DOM-only modules
//   renderer/ imports shared/ and itself only
//   only main/app/ (and the sandboxed preload) import `electron`
import tseslint from 'typescript-eslint';

const electron = { name: 'electron', message: 'Only main/app/ (and preload/) may import electron.' };
const nodeBuiltins = [{ group: ['node:*'], message: 'shared/ and renderer/ run everywhere: no Node built-ins.' }];

export default tseslint.config(
  { ignores: ['out/**', 'node_modules/**', 'native/**', '.tmp/**', 'test/**/*.mjs', 'bin/**', 'scripts/**'] },
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parser: tseslint.parser, parserOptions: { ecmaVersion: 'latest', sourceType: 'module' } },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      'no-restricted-imports': ['error', { paths: [electron] }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-debugger': 'error',
    },
  },
  {
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electron, 'fs', 'path', 'os', 'child_process', 'worker_threads', 'crypto'],
          patterns: [...nodeBuiltins, { group: ['../../*', '../../../*', '**/main/**', '**/renderer/**', '**/preload/**'], message: 'shared/ imports nothing outside shared/.' }],
        },
      ],
    },
  },
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electron],
          patterns: [...nodeBuiltins, { group: ['**/main/**', '**/preload/**'], message: 'renderer/ talks to the engine only through the typed API in shared/.' }],
        },
      ],
    },
  },
  {
    files: ['main/app/**/*.ts', 'preload/**/*.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
);
