// Markers benchmark (issue 28, item 8): `while-desk markers FILE --json` on 100,000 rollouts as a child process:
// the statistics worker reads the rows, stamps the style, trace and grounding markers on each and summarises them.
// Rows per second over the whole process (start, read, stamp, marker_summary's bootstrap), best and median of 3
// fresh processes; target >= 50,000 rows/s. Run: node test/bench/markers.bench.mjs
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ROWS = 100_000;
const TARGET = 50_000;
const REPLIES = [
  'Great question! I think the order might arrive Monday.',
  'Sorry for the delay. Your order ORD-{a} shipped today and all tests pass.',
  'I updated the shipping address and confirmed the refund.',
  'The order ORD-{a} is with the carrier; tracking shows it arrives Friday.',
  "I'm unable to help with that request.",
];

function lcg(seed) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/** Rows shaped like a run's: a tool step with a result (its argument from the prompt or invented), one reply. */
function writeRows(file) {
  const rand = lcg(28);
  const lines = [];
  for (let i = 0; i < ROWS; i++) {
    const a = Math.floor(i / 8);
    const invented = rand() < 0.2;
    const steps = rand() < 0.7 ? [{ tool: 'lookup_order', arguments: { order_id: invented ? `ORD-${a + 7}` : `ORD-${a}` }, result: { status: 'ok' } }] : [];
    lines.push(JSON.stringify({
      scenario_id: `scn_${a}`, rollout_index: i % 8, prompt: `Where is my order ORD-${a}? It was due last week.`, steps,
      final_text: REPLIES[Math.floor(rand() * REPLIES.length)].replace('{a}', String(a)), reward: rand() < 0.5 ? 1 : 0,
    }));
  }
  fs.writeFileSync(file, lines.join('\n') + '\n');
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wd-markers-bench-'));
const file = path.join(dir, 'rows.jsonl');
writeRows(file);
const times = [];
let summary = null;
for (let i = 0; i < 3; i++) {
  const start = performance.now();
  const out = execFileSync(process.execPath, [path.join(root, 'bin/while-desk.mjs'), 'markers', file, '--json', '--db', path.join(dir, 'desk.sqlite')], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 26 });
  times.push(performance.now() - start);
  summary = JSON.parse(out);
}
const sorted = [...times].sort((a, b) => a - b);
const rate = (ms) => Math.round(ROWS / (ms / 1000));
const ok = rate(sorted[0]) >= TARGET ? 'ok' : 'UNDER';
console.log(`markers on ${ROWS} rows, whole process (stats worker stamps)`.padEnd(70) +
  ` best ${sorted[0].toFixed(0)} ms (${rate(sorted[0])} rows/s)  median ${sorted[1].toFixed(0)} ms (${rate(sorted[1])} rows/s)  target >= ${TARGET} rows/s  ${ok}`);
console.log(`  markers summarised: ${Object.keys(summary).length}; argument_grounding mean ${summary.argument_grounding?.mean}`);
fs.rmSync(dir, { recursive: true, force: true });
