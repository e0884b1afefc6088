// Growth with the rows (issue 30): the small bench rows (0.5 KB, writeSdkRows) beside rows as real runs write them
// (1.7 KB: a multi-turn conversation, tool calls and outputs, the world; realisticRow), at 10k, 100k and 1M rows, every
// figure a whole process (the CLI, or a fresh engine for the API), the median of 5 fresh runs at 10k and 100k and one
// run at 1M (where the size says how cost and memory grow: import, `stats pass-at FILE`, the first statistic through
// the API). Each size imports a baseline and a candidate (the candidate's tasks pass a little more often), so the
// compare figures are `while-desk compare` of two runs of that many rows each: its first report on imports never read
// (each run on a fresh copy of the database as the imports left it), and the later ones, which read the folds the
// first kept. Prints the machine (cores, Node, load, `node -e 0`, a JSON.parse reference) and a markdown table for
// docs/performance.md. SCALE_SIZES=10000,100000 picks the sizes; SCALE_KINDS=small or realistic one kind.
// Run: node test/bench/rows-scale.bench.mjs (after `npm run build:engine`).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { writeRealisticRows, writeSdkRows } from './generate-rows.mjs';
import { nodeStartLine, parseReferenceLine } from './machine-reference.mjs';
import { coldPassAtScript } from './cold-pass-at.mjs';
import { runWithPeak } from './process-peak.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cli = path.join(root, 'bin/while-desk.mjs');
const SIZES = (process.env.SCALE_SIZES || '10000,100000,1000000').split(',').map(Number);
const KINDS = (process.env.SCALE_KINDS || 'small,realistic').split(',');
const RUNS = 5;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'while-desk-bench-scale-'));
// The engine for the API figure, bundled under out/ (its worker scripts are found from there, as the app's are).
const lib = fs.mkdtempSync(path.join(root, 'out', '.bench-scale-'));

/** A whole process: wall seconds, peak RSS in MB, and its stdout. */
const run = (args) => runWithPeak(args, { cwd: root });

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const fmt = (seconds) => `${seconds.toFixed(2)} s`;

// The first statistic through the API on a cold engine, as the app or serve is when a person's first call arrives.
const COLD = path.join(lib, 'cold.mjs');
await build({
  stdin: { contents: `export { createEngine } from './main/engine/engine';`, resolveDir: root, loader: 'ts', sourcefile: 'bench-entry.ts' },
  outfile: path.join(lib, 'engine.mjs'), bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', logLevel: 'warning',
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
});
fs.writeFileSync(COLD, coldPassAtScript('engine.mjs'));

async function writeRows(file, kind, rows, seed, shift) {
  if (kind === 'realistic') await writeRealisticRows(file, rows / 4, 4, { seed, shift });
  else await writeSdkRows(file, rows, { seed, shift });
  // On disk before anything is timed: else the kernel writes the new file back while the imports run (on 2026-12-07
  // the 100k realistic imports measured 38,600 rows/s so, and 76,000 rows/s directly after a sync).
  const fd = fs.openSync(file, 'r');
  fs.fsyncSync(fd);
  fs.closeSync(fd);
}

async function importInto(db, file) {
  const out = await run([cli, 'import', file, '--db', db, '--json']);
  return { ...out, id: JSON.parse(out.stdout).dataset_id };
}

const results = [];
console.log(`rows scale bench on ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
console.log(nodeStartLine());
try {
  for (const size of SIZES) {
    for (const kind of KINDS) {
      const runs = size >= 1_000_000 ? 1 : RUNS;
      const base = path.join(dir, `${kind}-${size}-a.jsonl`);
      const cand = path.join(dir, `${kind}-${size}-b.jsonl`);
      await writeRows(base, kind, size, 7, 0);
      if (size < 1_000_000) await writeRows(cand, kind, size, 8, 0.03);
      const mb = fs.statSync(base).size / 1e6;
      if (size === 100_000) console.log(parseReferenceLine(base, `the ${kind} 100k file`));
      // import: a fresh database each run
      // Each database removed before the next import: five of them kept meant the kernel writing the earlier ones back
      // while the later ones ran (1.83 s against 1.26 s a 100k realistic import on 2026-12-07).
      const imports = [];
      for (let i = 0; i < runs; i++) {
        const file = path.join(dir, `import-${kind}-${size}-${i}.db`);
        imports.push(await importInto(file, base));
        for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
      }
      const db = path.join(dir, `${kind}-${size}.db`);
      const a = await importInto(db, base);
      const b = size < 1_000_000 ? await importInto(db, cand) : null;
      // stats pass-at FILE
      const fileRuns = [];
      for (let i = 0; i < runs; i++) fileRuns.push((await run([cli, 'stats', 'pass-at', base, '--k', '4', '--json', '--db', path.join(dir, 'cli.db')])).seconds);
      // first statistic through the API, cold
      const coldRuns = [];
      for (let i = 0; i < runs; i++) coldRuns.push(JSON.parse((await run([COLD, db, a.id])).stdout).ms / 1000);
      // compare: first (imports never read: a fresh copy each run), then the kept folds' reports
      let compareFirst = null;
      let compareKept = null;
      if (b) {
        const firsts = [];
        for (let i = 0; i < runs; i++) {
          const copy = path.join(dir, `copy-${kind}-${size}.db`);
          fs.copyFileSync(db, copy);
          firsts.push((await run([cli, 'compare', a.id, b.id, '--json', '--db', copy])).seconds);
          if (i === runs - 1) {
            const kept = [];
            for (let j = 0; j < runs; j++) kept.push((await run([cli, 'compare', a.id, b.id, '--json', '--db', copy])).seconds);
            compareKept = median(kept);
          }
          fs.rmSync(copy, { force: true });
        }
        compareFirst = median(firsts);
      }
      const importSeconds = median(imports.map((one) => one.seconds));
      const row = {
        size, kind, mb, runs,
        importRate: size / importSeconds, importSeconds, importPeak: Math.max(...imports.map((one) => one.peakMb)),
        file: median(fileRuns), cold: median(coldRuns), compareFirst, compareKept,
      };
      results.push(row);
      console.log(JSON.stringify(row));
      for (const file of [base, cand, db]) fs.rmSync(file, { force: true });
    }
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(lib, { recursive: true, force: true });
}

console.log(`\nload average at the end ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}\n`);
console.log('| rows | row kind | file | import (rows/s, peak RSS) | `stats pass-at FILE --k 4` | first `stats.passAt`, API, cold | `compare`, first / kept folds |');
console.log('| ---: | --- | ---: | ---: | ---: | ---: | ---: |');
for (const r of results) {
  const runs = r.runs === 1 ? ' (1 run)' : '';
  const compare = r.compareFirst === null ? '-' : `${fmt(r.compareFirst)} / ${fmt(r.compareKept)}`;
  console.log(`| ${r.size.toLocaleString('en-US')} | ${r.kind} | ${r.mb.toFixed(0)} MB | ${Math.round(r.importRate).toLocaleString('en-US')}/s, ${r.importPeak.toFixed(0)} MB${runs} | ${fmt(r.file)} | ${fmt(r.cold)} | ${compare} |`);
}
