// hack_scan benchmark (issue 28, item 8): `while-desk stats hack-scan` on 20,000 rollouts (2,500 asks x 8) as a
// child process, whole process (target 3 s), best and median of 5 fresh processes: on a JSONL file, and on an
// imported dataset (the engine opens the database and a statistics worker reads the rows).
// The SDK's Python takes about 11 s for the same scan (measured once beside the bench, the same report).
// Run: node test/bench/hack-scan.bench.mjs
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { nodeStartLine, parseReferenceLine } from './machine-reference.mjs';
import { lcg } from './generate-rows.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ASKS = 2_500;
const K = 8;
const TARGET_MS = 3_000;
const WORDS = (
  'the order is on its way and should arrive soon please check the tracking page for updates we shipped your package ' +
  'today sorry for the delay carrier warehouse label monday friday refund issued confirmed account email address'
).split(' ');

/** Rows shaped like a run's: tool steps with results, replies of a few sentences, markers; the reward pays for length. */
function writeRows(file) {
  const rand = lcg(28);
  const lines = [];
  for (let a = 0; a < ASKS; a++) {
    for (let k = 0; k < K; k++) {
      const n = 10 + Math.floor(rand() * 70);
      const words = Array.from({ length: n }, () => WORDS[Math.floor(rand() * WORDS.length)]);
      const sentences = [];
      for (let i = 0; i < words.length; i += 12) sentences.push(`${words.slice(i, i + 12).join(' ')}.`);
      const uses = rand() < 0.5;
      const steps = uses ? [{ tool: 'lookup_order', arguments: { order_id: `ORD-${a}` }, result: { status: 'ok', eta: 'Monday', carrier: 'UPS' } }] : [];
      if (rand() < 0.3) steps.push({ tool: 'search_kb', arguments: { query: 'shipping times' }, result: { hits: 3 } });
      lines.push(JSON.stringify({
        scenario_id: `scn_${a}`, rollout_index: k, prompt: `Where is my order ORD-${a}? It was due last week.`, steps,
        final_text: sentences.join(' '), reward: (n > 45) !== (rand() < 0.15) ? 1 : 0, judge_status: 'ok',
        markers: { grounded: uses ? 1 : 0, no_hedging: rand() < 0.8 ? 1 : 0 },
      }));
    }
  }
  fs.writeFileSync(file, lines.join('\n') + '\n');
}

function report(label, times) {
  const sorted = [...times].sort((a, b) => a - b);
  const ok = sorted[0] <= TARGET_MS ? 'ok' : 'OVER';
  console.log(`${label.padEnd(70)} best ${sorted[0].toFixed(0).padStart(6)} ms  median ${sorted[2].toFixed(0).padStart(6)} ms  target <= ${TARGET_MS} ms  ${ok}`);
}

function whole(args) {
  const times = [];
  let report = null;
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    const out = execFileSync(process.execPath, ['bin/while-desk.mjs', 'stats', 'hack-scan', ...args, '--endorsed', 'tool:lookup_order', '--json'], { cwd: root, encoding: 'utf8' });
    times.push(performance.now() - t0);
    const parsed = JSON.parse(out);
    if (report && JSON.stringify(parsed) !== JSON.stringify(report)) throw new Error('two runs of the same scan differ');
    report = parsed;
  }
  return { times, report };
}

const tmp = fs.mkdtempSync(path.join(root, 'out', '.bench-hack-'));
try {
  execFileSync(process.execPath, ['scripts/build-engine.mjs'], { cwd: root, stdio: 'inherit' });
  const file = path.join(tmp, 'rows.jsonl');
  writeRows(file);
  const db = path.join(tmp, 'desk.sqlite');
  const imported = JSON.parse(execFileSync(process.execPath, ['bin/while-desk.mjs', 'import', file, '--db', db, '--json'], { cwd: root, encoding: 'utf8' }));
  console.log(`\n${(ASKS * K).toLocaleString('en-US')} rows, ${(fs.statSync(file).size / 1e6).toFixed(1)} MB; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} on ${os.cpus().length} cores`);
  console.log(nodeStartLine());
  console.log(parseReferenceLine(file, 'the bench file', 3));
  const onFile = whole([file, '--db', path.join(tmp, 'cli.db')]);
  report('while-desk stats hack-scan FILE.jsonl, 20k rows, whole process', onFile.times);
  const onDataset = whole([imported.dataset_id, '--db', db]);
  report('while-desk stats hack-scan DATASET_ID, 20k rows, whole process', onDataset.times);
  if (JSON.stringify(onFile.report) !== JSON.stringify(onDataset.report)) throw new Error('the file and the dataset gave different scans');
  const r = onFile.report;
  console.log(`scan: ${r.regime}, top ${r.top_feature}, tau ${r.tau}, ${r.n_features} features, ${r.n_above_floor} above the floor`);
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
