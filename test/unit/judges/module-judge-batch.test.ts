// Rows travel to a module judge's process as JSON text, in chunks (judge-pool.ts): each row still gets its own
// verdict in order, the judge sees the row as it would be stored, and a row that cannot be written as JSON gets
// an error of its own without costing its neighbours their verdicts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadJudge } from '../../../main/judges/load-judge';
import { buildEngine } from '../../helpers/build-engine';

beforeAll(buildEngine, 120_000);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'module-judge-batch-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('module judge batches', () => {
  it('answers a batch over several chunks in order, and charges an unsendable row alone', async () => {
    const file = path.join(dir, 'echo.mjs');
    fs.writeFileSync(file, 'export default (row) => ({ reward: row.n % 2, reason: `n=${row.n} keys=${Object.keys(row).join(",")}` });\n');
    const judge = await loadJudge(file, { timeoutMs: 10_000 });
    try {
      const rows: Array<Record<string, unknown>> = Array.from({ length: 300 }, (_, n) => ({ n, skipped: undefined, text: 'é\u2028"' }));
      rows[150] = { n: 150, big: BigInt(1) };
      const verdicts = await judge.judgeBatch(rows);
      expect(verdicts).toHaveLength(300);
      for (let n = 0; n < 300; n++) {
        if (n === 150) {
          expect(verdicts[n]).toMatchObject({ reward: null, judge_status: 'error' });
          expect(JSON.stringify(verdicts[n].judge_meta)).toMatch(/could not be sent to the judge/);
        } else {
          expect(verdicts[n]).toMatchObject({ reward: n % 2, judge_status: 'ok', reason: `n=${n} keys=n,text` });
        }
      }
    } finally {
      await judge.close();
    }
  }, 60_000);

  it('charges a hang or an exit in a chunk queued behind another to its own row, and answers every other row', async () => {
    // Chunks go out two at a time per process (judge-pool.ts IN_FLIGHT): row 200 lies in one sent while another ran.
    for (const [source, status] of [
      ['for (;;) {}', 'timeout'],
      ['process.exit(7)', 'crashed'],
    ] as const) {
      const file = path.join(dir, `${status}.mjs`);
      fs.writeFileSync(file, `export default (row) => { if (row.n === 200) { ${source} } return row.n % 2; };\n`);
      const judge = await loadJudge(file, { timeoutMs: 500, workers: 1 });
      try {
        const rows = Array.from({ length: 600 }, (_, n) => ({ n }));
        const verdicts = await judge.judgeBatch(rows);
        expect(verdicts[200]).toMatchObject({ reward: null, judge_status: status });
        verdicts.forEach((verdict, n) => {
          if (n !== 200) expect(verdict).toMatchObject({ reward: n % 2, judge_status: 'ok' });
        });
      } finally {
        await judge.close();
      }
    }
  }, 60_000);
});
