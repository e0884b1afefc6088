// Statistics benchmark (issue 3 and issue 8 figures): pass_at, curriculum and judge_trust timings; pass_at end to
// end through the engine's worker pool on a SQLite dataset; and two whole-process figures, each best of 5 fresh
// processes: `while-desk stats pass-at FILE.jsonl --k 4` on 100k rows, and the first statistic on a 100k-row
// dataset through the API, cold (a new engine, no worker yet). Run: node test/bench/stats.bench.mjs
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { nodeStartLine, parseReferenceLine } from './machine-reference.mjs';
import { coldPassAtScript } from './cold-pass-at.mjs';
import { lcg } from './generate-rows.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TASKS = 25_000;
const K = 4;
const JUDGE_ROWS = 10_000;
/** `--whole`: only the whole-process figures (and the import they need). */
const WHOLE_ONLY = process.argv.includes('--whole');

// A small deterministic generator, so every run measures the same rows.
function passRows() {
  const rand = lcg(7);
  const rows = [];
  for (let t = 0; t < TASKS; t++) {
    const p = rand() < 0.2 ? 0 : rand() < 0.25 ? 1 : rand();
    for (let r = 0; r < K; r++) {
      const reward = rand() < p ? 1 : 0;
      rows.push({
        scenario_id: `task_${t}`, rollout_index: r, prompt: `Task ${t}: please help with order ${1000 + t}.`, final_text: `Reply ${t}/${r}`,
        steps: [], reward, judge_status: 'ok', sampling: { temperature: 0.7, max_tokens: 512 },
        policy_version: 'bench-policy@abc123', finish_reason: rand() < 0.03 ? 'length' : 'stop',
      });
    }
  }
  return rows;
}

function judgeRows() {
  const rand = lcg(11);
  const rows = [];
  for (let i = 0; i < JUDGE_ROWS; i++) {
    const good = rand() < 0.55;
    const text = good ? `Your refund for order ${i} is issued; the tracking number is ZX${i}.` : `Please contact support about order ${i}.`;
    const gold = rand() < 0.92 ? (good ? 1 : 0) : good ? 0 : 1;
    rows.push({ scenario_id: `jt_${Math.floor(i / 4)}`, rollout_index: i % 4, prompt: `Where is my refund for order ${i}?`, final_text: text, steps: [], reward: good ? 1 : 0, gold_reward: gold, gold_kind: 'human' });
  }
  return rows;
}

const JUDGE = `// bench judge: passes a reply that names a refund and a tracking number
export default function refundJudge(row) {
  const text = String(row.final_text ?? '');
  return /refund/i.test(text) && /tracking/i.test(text) ? 1 : 0;
}
`;

const E2E = `
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
const [dbPath, datasetId, passAt1, passAtK] = process.argv.slice(2);
const { createEngine } = await import(new URL('./bench.mjs', import.meta.url).href);
const engine = createEngine({ dbPath });
const delay = monitorEventLoopDelay({ resolution: 5 });
// Baseline: the same measure over an idle second, so a busy machine's scheduling delay is not read as the engine's.
delay.enable();
await new Promise((resolve) => setTimeout(resolve, 1000));
delay.disable();
console.log('engine thread max stall while idle (baseline for this machine right now)'.padEnd(88) + (delay.max / 1e6).toFixed(1) + ' ms');
for (const run of ['first call (worker start, read + parse 100k rows)', 'second call (rows cached in the worker)']) {
  delay.reset();
  delay.enable();
  const t0 = performance.now();
  const elu0 = performance.eventLoopUtilization();
  const out = await engine.call('stats.passAt', { dataset_id: datasetId });
  const ms = performance.now() - t0;
  const busy = performance.eventLoopUtilization(elu0);
  delay.disable();
  const same = String(out.report.pass_at_1) === passAt1 && String(out.report.pass_at_k) === passAtK;
  console.log('stats.passAt through the pool, ' + run.padEnd(48) + ms.toFixed(0).padStart(6) + ' ms  engine thread max stall ' + (delay.max / 1e6).toFixed(1) + ' ms, engine thread busy ' + (busy.utilization * 100).toFixed(1) + '% of the call  ' + (same ? 'same numbers' : 'DIFFERENT numbers'));
}
await engine.close();
`;

function report(label, times, target) {
  const sorted = [...times].sort((a, b) => a - b);
  const ok = sorted[0] <= target ? 'ok' : 'OVER';
  console.log(`${label.padEnd(72)} best ${sorted[0].toFixed(0).padStart(6)} ms  median ${sorted[2].toFixed(0).padStart(6)} ms  target <= ${target} ms  ${ok}`);
}

async function time(label, target, fn, repeat = 3) {
  await fn(); // warm-up (JIT)
  const times = [];
  let result;
  for (let i = 0; i < repeat; i++) {
    const t0 = performance.now();
    result = await fn();
    times.push(performance.now() - t0);
  }
  const best = Math.min(...times);
  const median = times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
  const ok = best <= target ? 'ok' : 'OVER';
  console.log(`${label.padEnd(58)} best ${best.toFixed(0).padStart(6)} ms  median ${median.toFixed(0).padStart(6)} ms  target <= ${target} ms  ${ok}`);
  return result;
}

const tmp = fs.mkdtempSync(path.join(root, 'out', '.bench-stats-'));
try {
  execFileSync(process.execPath, ['scripts/build-engine.mjs'], { cwd: root, stdio: 'inherit' });
  const entry = `
    export { passAt } from './shared/stats/pass-at';
    export { curriculum } from './shared/stats/curriculum';
    export { judgeTrust } from './shared/stats/judge-trust';
    export { createEngine } from './main/engine/engine';
    export { importFile } from './main/cli/import-file';
    export { loadJudge } from './main/judges/load-judge';
    export { loadModuleJudge } from './main/judges/module-judge';
    export { judgeFunction } from './main/stats-workers/jobs';
    export { RowReader } from './main/stats-workers/row-reader';
  `;
  await build({
    stdin: { contents: entry, resolveDir: root, loader: 'ts', sourcefile: 'bench-entry.ts' },
    outfile: path.join(tmp, 'bench.mjs'), bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', logLevel: 'warning',
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  });
  const lib = await import(pathToFileURL(path.join(tmp, 'bench.mjs')).href);

  console.log(`\nStatistics benchmark on ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), node ${process.version}`);
  const rows = passRows();
  console.log(`pass_at / curriculum rows: ${rows.length} (${TASKS} tasks x k=${K}); judge_trust rows: ${JUDGE_ROWS}\n`);

  let passAtBest = Infinity;
  const pa = WHOLE_ONLY ? lib.passAt(rows) : await time('pass_at, three 2000-draw intervals, 100k rows', 500, () => {
    const t0 = performance.now();
    const out = lib.passAt(rows);
    passAtBest = Math.min(passAtBest, performance.now() - t0);
    return out;
  });
  if (!WHOLE_ONLY) await coreTimings();
  async function coreTimings() {
  console.log(`  -> ${(41_000 / passAtBest).toFixed(0)}x the SDK's ~41 s for this call (goal: >= 80x)`);
  console.log(`  -> pass@1 ${pa.pass_at_1.toFixed(4)} ${JSON.stringify(pa.ci95)}, pass^4 ${pa.pass_pow_k?.toFixed(4)}, pass@4 ${pa.pass_at_k?.toFixed(4)}`);
  await time('curriculum, 100k rows', 100, () => lib.curriculum(rows));

  const judgeFile = path.join(tmp, 'refund-judge.mjs');
  fs.writeFileSync(judgeFile, JUDGE);
  const jrows = judgeRows();
  const judge = await lib.loadJudge(judgeFile, {}).catch(() => lib.loadModuleJudge(judgeFile));
  const jt = await time('judge_trust, all probes, program judge, 10k rows', 2000, () =>
    lib.judgeTrust(jrows, { judge: lib.judgeFunction(judge), probes: 'all', judge_name: judge.name }),
  );
  console.log(`  -> agreement ${jt.agreement?.agreement}, kappa ${jt.agreement?.kappa}, ok ${jt.ok}, exploitable_by ${JSON.stringify(jt.exploitable_by)}`);
  }

  // End to end: the engine API, a SQLite dataset, the worker pool, measured in a fresh process (so this
  // script's own 100k-row heap does not add garbage-collection pauses to the engine thread's figure).
  const dbPath = path.join(tmp, 'bench.db');
  const jsonl = path.join(tmp, 'rows.jsonl');
  fs.writeFileSync(jsonl, rows.map((row) => JSON.stringify(row)).join('\n') + '\n');
  let datasetId;
  {
    const engine = lib.createEngine({ dbPath });
    try {
      const t0 = performance.now();
      const imported = await lib.importFile(engine, jsonl, { name: 'bench', skipInvalid: false });
      datasetId = imported.dataset_id;
      console.log(`\nimported ${imported.rows_imported} rows into SQLite in ${(performance.now() - t0).toFixed(0)} ms`);
      if (!WHOLE_ONLY) await time('worker read path: 100k rows from SQLite + JSON.parse', 1000, () => {
        const reader = new lib.RowReader(dbPath);
        try {
          return reader.resolve({ dataset_id: datasetId });
        } finally {
          reader.close();
        }
      }, 2);
    } finally {
      await engine.close();
    }
  }
  const child = path.join(tmp, 'e2e.mjs');
  fs.writeFileSync(child, E2E);
  if (!WHOLE_ONLY) execFileSync(process.execPath, [child, dbPath, datasetId, String(pa.pass_at_1), String(pa.pass_at_k)], { cwd: root, stdio: 'inherit' });

  // Whole-process figures (issue 8): fresh processes, best of 5, with the machine's load and speed beside them.
  console.log(`\nWhole-process figures, best of 5 fresh processes (load average now ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} on ${os.cpus().length} cores)`);
  console.log(nodeStartLine());
  console.log(parseReferenceLine(jsonl, 'the bench file', 3));
  const cliRuns = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    const out = execFileSync(process.execPath, ['bin/while-desk.mjs', 'stats', 'pass-at', jsonl, '--k', '4', '--json', '--db', path.join(tmp, 'cli.db')], { cwd: root, encoding: 'utf8' });
    cliRuns.push(performance.now() - t0);
    if (JSON.parse(out).pass_at_1 !== pa.pass_at_1) throw new Error('while-desk stats pass-at gave a different pass@1');
  }
  report('while-desk stats pass-at FILE.jsonl --k 4, 100k rows, whole process', cliRuns, 500);
  const coldFile = path.join(tmp, 'cold.mjs');
  fs.writeFileSync(coldFile, coldPassAtScript('bench.mjs'));
  const coldRuns = [];
  for (let i = 0; i < 5; i++) {
    const out = JSON.parse(execFileSync(process.execPath, [coldFile, dbPath, datasetId], { cwd: root, encoding: 'utf8' }));
    if (out.pass_at_1 !== pa.pass_at_1) throw new Error('stats.passAt gave a different pass@1');
    coldRuns.push(out.ms);
  }
  report('first stats.passAt on a 100k-row dataset through the API, cold', coldRuns, 500);
  console.log('\nReference: the SDK\'s Python takes about 41 s for the pass_at call (issue 3); the goal is >= 80x faster (<= 0.5 s).');
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
