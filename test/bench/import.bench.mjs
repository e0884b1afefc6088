// Import figures: rows per second end to end for a 100k-row file (target >= 100k/s), and peak memory of
// the importing process for a 1M-row file (target < 300 MB). Runs the real CLI in a child process.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeSdkRows } from './generate-rows.mjs';
import { nodeStartLine, parseReferenceLine } from './machine-reference.mjs';
import { runWithPeak } from './process-peak.mjs';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'while-desk-bench-import-'));
const cli = path.resolve('bin/while-desk.mjs');

/** The CLI's import, whole process, with its peak RSS. */
async function importWithPeak(file, db) {
  const run = await runWithPeak([cli, 'import', file, '--db', db, '--json']);
  return { ...run, result: JSON.parse(run.stdout) };
}

console.log(nodeStartLine());

const small = path.join(dir, 'rows-100k.jsonl');
await writeSdkRows(small, 100_000);

console.log(parseReferenceLine(small, 'the 100k file'));
const runs = [];
for (let i = 0; i < 5; i++) runs.push(await importWithPeak(small, path.join(dir, `bench-${i}.db`)));
const best = runs.reduce((a, b) => (a.seconds < b.seconds ? a : b));
const rate = best.result.rows_imported / best.seconds;
console.log(`import 100k rows (${(fs.statSync(small).size / 1e6).toFixed(0)} MB), end to end incl. process start: best ${best.seconds.toFixed(2)} s of 5 (all: ${runs.map((run) => run.seconds.toFixed(2)).join(", ")}) = ${Math.round(rate).toLocaleString('en-US')} rows/s (target >= 100,000) ${rate >= 100_000 ? 'OK' : 'BELOW TARGET'}`);

// The same 100k rows, each with its conversation (`messages`) as the SDK exports it: twice the bytes to parse
// and store.
const withMessages = path.join(dir, 'rows-100k-messages.jsonl');
await writeSdkRows(withMessages, 100_000, { messages: true });
const runsWithMessages = [];
for (let i = 0; i < 3; i++) runsWithMessages.push(await importWithPeak(withMessages, path.join(dir, `bench-messages-${i}.db`)));
const bestWithMessages = runsWithMessages.reduce((a, b) => (a.seconds < b.seconds ? a : b));
const rateWithMessages = bestWithMessages.result.rows_imported / bestWithMessages.seconds;
console.log(`import 100k rows with messages (${(fs.statSync(withMessages).size / 1e6).toFixed(0)} MB), end to end: best ${bestWithMessages.seconds.toFixed(2)} s of 3 (all: ${runsWithMessages.map((run) => run.seconds.toFixed(2)).join(', ')}) = ${Math.round(rateWithMessages).toLocaleString('en-US')} rows/s`);

if (process.env.SKIP_1M) process.exit(0); // quick runs while tuning the 100k figure
const large = path.join(dir, 'rows-1m.jsonl');
await writeSdkRows(large, 1_000_000);
const big = await importWithPeak(large, path.join(dir, 'bench-1m.db'));
console.log(`import 1M rows (${(fs.statSync(large).size / 1e6).toFixed(0)} MB): ${big.seconds.toFixed(1)} s, ${Math.round(big.result.rows_imported / big.seconds).toLocaleString('en-US')} rows/s, peak RSS ${big.peakMb.toFixed(0)} MB (target < 300) ${big.peakMb < 300 ? 'OK' : 'ABOVE TARGET'}`);
fs.rmSync(dir, { recursive: true, force: true });
