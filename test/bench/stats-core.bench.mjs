// Benchmark: pass_at (with its three 2000-draw bootstraps) and curriculum on 100k rows (25,000 tasks x k=4).
// Targets on a 2-core machine: pass_at <= 500 ms, curriculum <= 100 ms. Run: node test/bench/stats-core.bench.mjs
import { build } from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dir = mkdtempSync(path.join(os.tmpdir(), 'stats-bench-'));
const entry = path.join(dir, 'entry.ts');
writeFileSync(entry, `export { passAt } from ${JSON.stringify(path.join(root, 'shared/stats/pass-at.ts'))};\nexport { curriculum } from ${JSON.stringify(path.join(root, 'shared/stats/curriculum.ts'))};\nexport { compareRuns } from ${JSON.stringify(path.join(root, 'shared/stats/compare-runs.ts'))};\n`);
const outfile = path.join(dir, 'stats.mjs');
await build({ entryPoints: [entry], bundle: true, format: 'esm', platform: 'neutral', outfile, logLevel: 'error' });
const { passAt, curriculum, compareRuns } = await import(pathToFileURL(outfile).href);

// Deterministic rows: task difficulty varies, 4 rollouts each.
const TASKS = 25_000;
const K = 4;
let state = 12345;
const next = () => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 4294967296);
const rows = [];
for (let t = 0; t < TASKS; t++) {
  const p = next();
  for (let i = 0; i < K; i++) {
    rows.push({ scenario_id: `scn_${t}`, rollout_index: i, prompt: `Task ${t}: help me`, final_text: 'Done.', reward: next() < p ? 1 : 0, sampling: { temperature: 0.7, max_tokens: 1024 }, policy_version: 'model-a', finish_reason: 'stop' });
  }
}

// Wall time, and process CPU time (user + system): on a busy shared machine the CPU figure is the steadier one.
function time(label, fn, runs = 5) {
  fn(); // warm-up
  const times = [];
  const cpus = [];
  let out;
  for (let r = 0; r < runs; r++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    out = fn();
    times.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpus.push((c.user + c.system) / 1000);
  }
  times.sort((a, b) => a - b);
  cpus.sort((a, b) => a - b);
  const median = times[Math.floor(runs / 2)];
  console.log(`${label}: wall median ${median.toFixed(1)} ms (min ${times[0].toFixed(1)}), cpu median ${cpus[Math.floor(runs / 2)].toFixed(1)} ms (min ${cpus[0].toFixed(1)}), ${runs} runs`);
  return { out, median, min: times[0] };
}

console.log(`rows: ${rows.length} (${TASKS} tasks x k=${K})`);
const pa = time('passAt (3 bootstraps x 2000 draws)', () => passAt(rows), 7);
console.log(`  pass@1 ${pa.out.pass_at_1.toFixed(4)} [${pa.out.ci95.map((x) => x.toFixed(4)).join(', ')}], pass^4 ${pa.out.pass_pow_k.toFixed(4)}, pass@4 ${pa.out.pass_at_k.toFixed(4)}`);
const cu = time('curriculum', () => curriculum(rows), 7);
console.log(`  ${cu.out.n_trainable} trainable, ${cu.out.n_solved} retired, ${cu.out.n_not_ready} not ready`);
const rowsB = rows.map((r, i) => (i % 10 === 0 ? { ...r, reward: 1 - r.reward } : r));
const cr = time('compareRuns (paired bootstrap + sign-flip, 2000 draws)', () => compareRuns(rows, rowsB), 3);
console.log(`  delta ${cr.out.delta.toFixed(4)} [${cr.out.ci95.map((x) => x.toFixed(4)).join(', ')}], p ${cr.out.p_value.toFixed(4)}, ${cr.out.verdict}`);
console.log(`targets (best wall run): passAt <= 500 ms (${pa.min <= 500 ? 'met' : 'MISSED'}), curriculum <= 100 ms (${cu.min <= 100 ? 'met' : 'MISSED'})`);
rmSync(dir, { recursive: true, force: true });
