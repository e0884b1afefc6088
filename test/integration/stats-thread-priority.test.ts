// The statistics threads run below the thread that starts them (stats-worker.ts: STATS_THREAD_NICE), on Linux,
// where a nice value belongs to one thread: the engine's own thread is left as it was.
import fs from 'node:fs';
import os from 'node:os';
import { beforeAll, describe, expect, it } from 'vitest';
import { StatsPool } from '../../main/stats-workers/pool';
import { buildEngine } from '../helpers/build-engine';

/** The nice value of each thread of this process (field 19 of proc(5)'s stat). */
function niceOfThreads(): number[] {
  return fs.readdirSync('/proc/self/task').flatMap((tid) => {
    try {
      const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      return [Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])];
    } catch {
      return []; // a thread that ended meanwhile
    }
  });
}

beforeAll(async () => {
  await buildEngine();
}, 180_000);

describe.runIf(process.platform === 'linux')('statistics thread priority', () => {
  it('runs a pool worker at nice 10 and leaves this thread as it was', async () => {
    const before = niceOfThreads().filter((nice) => nice === 10).length;
    const pool = new StatsPool({ dbPath: null });
    try {
      const rows = Array.from({ length: 12 }, (_, i) => ({ scenario_id: `t${i % 3}`, reward: i % 2, prompt: 'q', final_text: 'a', steps: [] }));
      await pool.run({ kind: 'pass_at', sources: { rows: { rows } }, params: { k: 1, min_k: 1 } }).result;
      expect(niceOfThreads().filter((nice) => nice === 10).length).toBeGreaterThan(before); // the pool's worker
      expect(os.getPriority(0)).toBe(0);
    } finally {
      await pool.close();
    }
  });
});
