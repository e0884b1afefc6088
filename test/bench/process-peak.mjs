// One process run for the benches that time a whole process: its wall seconds, its peak RSS (VmHWM, read from
// /proc every 20 ms while it runs, so a peak shorter than that can be missed) and its stdout.
import { spawn } from 'node:child_process';
import fs from 'node:fs';

/** Runs `node ARGS` (a script and its arguments); rejects when it exits other than 0. */
export function runWithPeak(args, { env = {}, cwd } = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
    let stdout = '';
    let peakKb = 0;
    child.stdout.on('data', (data) => (stdout += data));
    const sample = setInterval(() => {
      try {
        peakKb = Math.max(peakKb, Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0));
      } catch {
        // the process has exited
      }
    }, 20);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearInterval(sample);
      if (code !== 0) return reject(new Error(`${args.join(' ')} exited ${code}`));
      resolve({ seconds: (performance.now() - started) / 1000, peakMb: peakKb / 1024, stdout });
    });
  });
}
