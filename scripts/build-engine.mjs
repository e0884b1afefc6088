// Bundles the engine for plain Node: the CLI, the app's engine host, and the worker/child scripts.
// node_modules stay external (better-sqlite3 and node-llama-cpp are native).
import { build } from 'esbuild';
import { existsSync } from 'node:fs';

const candidates = {
  cli: 'main/cli/entry.ts',
  host: 'main/engine/host-entry.ts',
  'import-worker': 'main/datasets/import-worker.ts',
  'stats-worker': 'main/stats-workers/stats-worker.ts',
  'llama-child': 'main/sim/llama/llama-child.ts',
  'llama-agent': 'main/sim/llama/llama-agent.ts', // bench-only: test/bench/llama-tokens.bench.mjs
};
const entryPoints = Object.fromEntries(Object.entries(candidates).filter(([, file]) => existsSync(file)));

await build({
  entryPoints,
  outdir: 'out/engine',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
});
console.log(`built ${Object.keys(entryPoints).join(', ')} into out/engine`);
