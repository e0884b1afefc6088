// Training export figures: `while-desk export-training` on 100k realistic rows (about 1.7 KB each, tool calls and
// their output), whole process with its start, streamed to disk: rows per second (target >= 30,000) and the
// process's peak RSS (target < 300 MB); the same with an SFT selection and in the TRL shape.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { nodeStartLine } from './machine-reference.mjs';
import { runWithPeak } from './process-peak.mjs';
import { writeTrainingRows } from './training-rows.mjs';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'while-desk-bench-training-'));
const cli = path.resolve('bin/while-desk.mjs');
const ROWS = 100_000;

console.log(nodeStartLine());
const file = path.join(dir, 'rows.jsonl');
await writeTrainingRows(file, ROWS);
const db = path.join(dir, 'bench.db');
const imported = JSON.parse(spawnSync(process.execPath, [cli, 'import', file, '--db', db, '--json'], { encoding: 'utf8' }).stdout);
console.log(`${ROWS.toLocaleString('en-US')} rows, ${(fs.statSync(file).size / ROWS).toFixed(0)} bytes a row (${(fs.statSync(file).size / 1e6).toFixed(0)} MB)`);

for (const [label, extra, env] of [
  ['all rows, OpenAI shape', [], {}],
  ['all rows, OpenAI shape, on the engine thread alone (WHILE_DESK_EXPORT_THREADS=0)', [], { WHILE_DESK_EXPORT_THREADS: '0' }],
  ['TRL shape, final mask, tool output cut at 200', ['--format', 'trl', '--mask-mode', 'final', '--max-tool-output-chars', '200'], {}],
  ['SFT selection (top_per_prompt, min_reward 1)', ['--select', 'top_per_prompt'], {}],
  ['RL selection (select_for_rl)', ['--select', 'rl'], {}],
]) {
  const runs = [];
  for (let i = 0; i < 3; i++) {
    const out = path.join(dir, `out-${i}.jsonl`);
    const run = await runWithPeak([cli, 'export-training', imported.dataset_id, out, ...extra, '--db', db, '--json'], { env });
    run.written = JSON.parse(run.stdout).n;
    run.bytes = fs.statSync(out).size;
    fs.rmSync(out);
    runs.push(run);
  }
  const best = runs.reduce((a, b) => (a.seconds < b.seconds ? a : b));
  const rate = ROWS / best.seconds;
  const peak = Math.max(...runs.map((r) => r.peakMb));
  console.log(
    `export-training ${label}: ${ROWS.toLocaleString('en-US')} rows read, ${best.written.toLocaleString('en-US')} written (${(best.bytes / 1e6).toFixed(0)} MB), whole process: best ${best.seconds.toFixed(2)} s of 3 (all: ${runs.map((r) => r.seconds.toFixed(2)).join(', ')}) = ${Math.round(rate).toLocaleString('en-US')} rows/s (target >= 30,000) ${rate >= 30_000 ? 'OK' : 'BELOW TARGET'}; peak RSS ${peak.toFixed(0)} MB (target < 300) ${peak < 300 ? 'OK' : 'OVER TARGET'}`,
  );
}
fs.rmSync(dir, { recursive: true, force: true });
