// Bundles the engine for plain Node: the CLI, the app's engine host, and the worker/child scripts.
// Packages stay external (better-sqlite3 and node-llama-cpp are native) except zod, which is bundled: Node 20
// loads zod's hundred-odd ESM files in about 120 ms, the same code bundled in about 65 ms, and every command
// and the engine host pay that at start.
// Worker threads are built apart, each as one CommonJS file (THREADS below).
import { build } from 'esbuild';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

/**
 * Large modules a worker thread imports only sometimes (the judges, for judge_trust; zod's full row check, for an odd
 * row): built as entries of the shared ES module build, and imported from there, so a thread's own file stays small.
 * They must not hold state a thread shares with its own file (each has its own copy of the modules they import).
 */
const LOADED_LATE_BY_THREADS = {
  'load-judge': 'main/judges/load-judge.ts',
  'row-check': 'main/datasets/row-check.ts',
};

const BUNDLED_PACKAGES = ['zod'];
const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
const external = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies })
  .filter((name) => !BUNDLED_PACKAGES.includes(name))
  .flatMap((name) => [name, `${name}/*`]);

const candidates = {
  cli: 'main/cli/entry.ts',
  host: 'main/engine/host-entry.ts',
  'judge-child': 'main/judges/judge-child.ts',
  'llama-child': 'main/agents/llama/llama-child.ts',
  'llama-agent': 'main/agents/llama/llama-agent.ts', // bench-only: test/bench/llama-tokens.bench.mjs
  ...LOADED_LATE_BY_THREADS, // entries, so that threads import them by a name without a hash
};

/**
 * Worker threads, each one CommonJS file (out/engine/NAME.cjs) holding all the code it may run but LOADED_LATE: a new
 * thread has its code running some 10-15 ms sooner, and with less CPU, than from ES modules, whose loader starts
 * anew in every thread. Two statistics threads start for a `stats` command on a large file: `stats pass-at FILE` on
 * 100k rows took a median 701 against 772 ms (twelve alternated runs). Code a thread imports lazily (import()) is
 * still only run when first imported.
 */
const THREADS = {
  'stats-worker': 'main/stats-workers/stats-worker.ts',
  'import-worker': 'main/datasets/import-worker.ts',
  'checkpoint-worker': 'main/db/checkpoint-worker.ts',
  'run-fold-worker': 'main/rows/run-fold-worker.ts',
  'export-worker': 'main/training/export-worker.ts',
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

// Chunk names carry a hash: without this, every build would leave the chunks of the one before beside its own.
rmSync('out/engine', { recursive: true, force: true });

await build({
  entryPoints,
  outdir: 'out/engine',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  // Shared code goes to chunks and dynamic imports stay lazy: a CLI command loads only its own code.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  target: 'node20',
  external,
  plugins: [zodEnglishOnly],
  sourcemap: true,
  logLevel: 'warning',
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
});

/** Imports of LOADED_LATE_BY_THREADS modules, left to their files of the shared build (beside the thread's file). */
const loadedLate = {
  name: 'loaded-late',
  setup(builder) {
    const late = new Map(Object.entries(LOADED_LATE_BY_THREADS).map(([name, file]) => [path.resolve(file), name]));
    builder.onResolve({ filter: /^\./ }, (args) => {
      const name = late.get(path.resolve(args.resolveDir, args.path) + '.ts');
      return name ? { path: `./${name}.mjs`, external: true } : undefined;
    });
  },
};

const threads = Object.fromEntries(Object.entries(THREADS).filter(([, file]) => existsSync(file)));
await build({
  entryPoints: threads,
  outdir: 'out/engine',
  outExtension: { '.js': '.cjs' },
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external,
  plugins: [zodEnglishOnly, loadedLate],
  sourcemap: true,
  logLevel: 'warning',
  // The code finds the package's files from its own address (package-root.ts).
  define: { 'import.meta.url': '__importMetaUrl' },
  banner: { js: "const __importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
});
console.log(`built ${[...Object.keys(entryPoints), ...Object.keys(threads)].join(', ')} into out/engine`);
