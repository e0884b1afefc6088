// Bundles the engine for plain Node: the CLI, the app's engine host, and the worker/child scripts.
// Packages stay external (better-sqlite3 and node-llama-cpp are native) except zod, which is bundled: Node 20
// loads zod's hundred-odd ESM files in about 120 ms, the same code bundled in about 65 ms, and every command
// and the engine host pay that at start.
import { build } from 'esbuild';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const BUNDLED_PACKAGES = ['zod'];
const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
const external = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies })
  .filter((name) => !BUNDLED_PACKAGES.includes(name))
  .flatMap((name) => [name, `${name}/*`]);

const candidates = {
  cli: 'main/cli/entry.ts',
  host: 'main/engine/host-entry.ts',
  'import-worker': 'main/datasets/import-worker.ts',
  'stats-worker': 'main/stats-workers/stats-worker.ts',
  'judge-child': 'main/judges/judge-child.ts',
  'checkpoint-worker': 'main/db/checkpoint-worker.ts',
  'run-fold-worker': 'main/rows/run-fold-worker.ts',
  'llama-child': 'main/agents/llama/llama-child.ts',
  'llama-agent': 'main/agents/llama/llama-agent.ts', // bench-only: test/bench/llama-tokens.bench.mjs
};
/** zod bundles the messages of some sixty languages; the engine speaks English only. Halves zod's load time. */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(builder) {
    builder.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${path.sep}node_modules${path.sep}zod${path.sep}`) ? { path: path.join(path.dirname(args.importer), '..', 'locales', 'en.js') } : undefined,
    );
  },
};

const entryPoints = Object.fromEntries(Object.entries(candidates).filter(([, file]) => existsSync(file)));

await build({
  entryPoints,
  outdir: 'out/engine',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  // Shared code goes to chunks and dynamic imports stay lazy: a CLI command loads only its own code, and a
  // parse worker loads zod only when a line needs the full row check.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  target: 'node20',
  external,
  plugins: [zodEnglishOnly],
  sourcemap: true,
  logLevel: 'warning',
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
});
console.log(`built ${Object.keys(entryPoints).join(', ')} into out/engine`);
