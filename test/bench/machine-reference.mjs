// How fast this machine is right now, printed beside whole-process figures: a shared VM's speed drifts by a third
// or more from one minute to the next, so a figure means little without it. Two fixed workloads: starting Node
// (NODE_EXTRA_CA_CERTS, when set, makes Node parse those certificates at every start), and JSON.parse of a JSONL
// file's lines on one thread. Compare figures across runs only where these read about the same.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

/** `node -e 0`, best of five, in seconds; and whether NODE_EXTRA_CA_CERTS is set. */
export function nodeStartLine() {
  const starts = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    spawnSync(process.execPath, ['-e', '0']);
    starts.push(performance.now() - started);
  }
  const extraCerts = process.env.NODE_EXTRA_CA_CERTS ? ` (NODE_EXTRA_CA_CERTS is set: ${process.env.NODE_EXTRA_CA_CERTS})` : '';
  return `node -e 0 on this machine: best ${(Math.min(...starts) / 1000).toFixed(2)} s${extraCerts}`;
}

/** JSON.parse of each line of `file` on this thread, best of `times`, as a printable line. */
export function parseReferenceLine(file, label, times = 1) {
  const text = fs.readFileSync(file, 'latin1');
  let best = Infinity;
  let count = 0;
  for (let run = 0; run < times; run++) {
    const started = performance.now();
    count = 0;
    for (let at = 0, next; at < text.length; at = next + 1) {
      next = text.indexOf('\n', at);
      if (next === -1) next = text.length;
      if (JSON.parse(text.slice(at, next)) !== null) count++;
    }
    best = Math.min(best, performance.now() - started);
  }
  return `machine reference: JSON.parse of ${label}'s ${count.toLocaleString('en-US')} lines on one thread: ${(best / 1000).toFixed(2)} s`;
}
