// The label desk's pair mode in Chromium against `while-desk serve`: two datasets judged pairwise from the command
// line (`while-desk pairs A B --judge seeded`), then an annotator presses b, b, = and a on four pairs; the picks are
// in SQLite (pair_labels) and the agreement on screen equals the one counted here from the judge's winners.
import assert from 'node:assert/strict';
import path from 'node:path';
import Database from 'better-sqlite3';
import { runCli, writeJsonl } from './harness.mjs';

const TASKS = ['t0', 't1', 't2', 't3', 't4', 't5'];
const row = (side, task) => ({ schema_version: '1', scenario_id: task, rollout_index: 0, prompt: `Refund order ${task}?`, steps: [], final_text: `${side}: order ${task} refunded.` });

async function json(args) {
  const out = await runCli(args);
  assert.equal(out.code, 0, out.err);
  return JSON.parse(out.out);
}

export default [
  {
    name: 'press a, b, = on pairs: picks stored, pairwise agreement shown',
    async run({ page, url, dir }) {
      const db = path.join(dir, 'e2e.db');
      const { dataset_id: a } = await json(['import', writeJsonl(dir, 'a.jsonl', TASKS.map((t) => row('A', t))), '--json', '--db', db]);
      const { dataset_id: b } = await json(['import', writeJsonl(dir, 'b.jsonl', TASKS.map((t) => row('B', t))), '--json', '--db', db]);
      const judged = await json(['pairs', a, b, '--judge', 'seeded', '--json', '--db', db]);
      assert.equal(judged.n, 6);
      const judgeWinner = new Map(judged.pairs.map((p) => [p.task, p.winner]));

      await page.goto(`${url}#/label/pairs/${a}/${b}`);
      await page.getByTestId('annotator-name').fill('pia');
      await page.keyboard.press('Enter');
      const pair = page.getByTestId('pair-row');
      await pair.waitFor();
      assert.match(await page.getByTestId('pair-a').textContent(), /^A: order t0/);
      assert.match(await page.getByTestId('pair-b').textContent(), /^B: order t0/);
      const keys = ['b', 'b', '=', 'a'];
      const picked = [];
      for (const key of keys) {
        const task = await pair.getAttribute('data-task');
        picked.push({ task, pick: key === '=' ? 'tie' : key });
        await page.keyboard.press(key);
        await page.waitForFunction(
          ([was, n]) => document.querySelector('[data-testid=pair-row]')?.getAttribute('data-task') !== was && Number(document.querySelector('[data-testid=pair-agreement]')?.getAttribute('data-labeled')) === n,
          [task, picked.length],
        );
      }

      const conn = new Database(db, { readonly: true });
      const stored = conn.prepare('SELECT task, pick, annotator, a_id, b_id FROM pair_labels ORDER BY label_id').all();
      conn.close();
      assert.deepEqual(stored.map((r) => ({ task: r.task, pick: r.pick })), picked);
      assert.ok(stored.every((r) => r.annotator === 'pia' && r.a_id === a && r.b_id === b));

      // the agreement, counted here: of the picks of a side where the judge decided, the share where it picked that side
      const sides = picked.filter((p) => p.pick !== 'tie' && judgeWinner.get(p.task) !== null);
      assert.ok(sides.length > 0, 'the seeded judge decided none of the picked pairs: the check would be empty');
      const agree = sides.filter((p) => judgeWinner.get(p.task) === p.pick.toUpperCase()).length;
      const shown = await page.getByTestId('pair-agreement').getAttribute('data-agrees');
      assert.equal(shown === '' ? null : Number(shown), sides.length ? Math.round((agree / sides.length) * 1e4) / 1e4 : null);
      const text = await page.getByTestId('pair-agrees').textContent();
      assert.equal(text, sides.length ? `${((agree / sides.length) * 100).toFixed(1)}%` : 'n/a');
    },
  },
];
