// The label queue's marker filter in Chromium against `while-desk serve`: on a dataset whose rows carry a judge
// marker and, after `while-desk markers DATASET`, the stamped ones, the Marker control lists the names present and
// choosing `NAME = 0` leaves exactly the rows where that marker is 0 (walked one by one with j).
import assert from 'node:assert/strict';
import path from 'node:path';
import { runCli, sampleRow, writeJsonl } from './harness.mjs';

const ROWS = 30;

async function json(args) {
  const out = await runCli(args);
  assert.equal(out.code, 0, out.err);
  return JSON.parse(out.out);
}

const keyOf = (row) => `${row.scenario_id}#${row.rollout_index}`;

export default [
  {
    name: 'the Marker filter lists the stamped and judge markers and shows only the rows where the chosen one is 0',
    async run({ page, url, dir }) {
      const db = path.join(dir, 'e2e.db');
      // Every third row fails the judge's own `on_policy` marker; every fifth hedges (the stamp's no_hedging = 0).
      const all = Array.from({ length: ROWS }, (_, i) =>
        sampleRow(i, {
          markers: { on_policy: i % 3 === 0 ? 0 : 1 },
          ...(i % 5 === 0 ? { final_text: `I'm not sure, but I refunded order ${5000 + i}.` } : {}),
        }),
      );
      const { dataset_id: id } = await json(['import', writeJsonl(dir, 'marked.jsonl', all), '--json', '--db', db]);
      const stamped = await runCli(['markers', id, '--db', db]);
      assert.equal(stamped.code, 0, stamped.err);

      await page.goto(`${url}#/label/${id}`);
      const name = page.getByTestId('annotator-name');
      await name.waitFor();
      await name.fill('ana');
      await page.keyboard.press('Enter');
      await page.getByTestId('label-row').waitFor();

      const filter = page.getByTestId('filter-marker');
      await filter.waitFor();
      const options = await filter.locator('option').evaluateAll((list) => list.map((option) => option.value));
      for (const want of ['0:on_policy', '1:on_policy', '0:no_hedging', '0:argument_grounding']) assert.ok(options.includes(want), `${want} in ${options.join(', ')}`);

      for (const [marker, expected] of [
        ['on_policy', all.filter((_, i) => i % 3 === 0).map(keyOf)],
        ['no_hedging', all.filter((_, i) => i % 5 === 0).map(keyOf)],
      ]) {
        await filter.selectOption(`0:${marker}`);
        await page.getByTestId('label-progress').filter({ hasText: `${expected.length} in this queue` }).waitFor();
        await page.locator('.label-desk').focus();
        const seen = [];
        for (let i = 0; i < expected.length; i++) {
          const row = page.getByTestId('label-row');
          const key = await row.getAttribute('data-row-key');
          seen.push(key);
          if (i + 1 < expected.length) {
            await page.keyboard.press('j');
            await page.waitForFunction((was) => document.querySelector('[data-testid=label-row]')?.getAttribute('data-row-key') !== was, key);
          }
        }
        assert.deepEqual([...seen].sort(), [...expected].sort(), `rows shown for ${marker} = 0`);
      }

      // Back to Any: every row again.
      await filter.selectOption('');
      await page.getByTestId('label-progress').filter({ hasText: `${ROWS} in this queue` }).waitFor();
    },
  },
  {
    name: 'the rows table\'s Marker filter shows only the rows where the chosen marker is 0, and Any shows them all again',
    async run({ page, url, dir }) {
      const db = path.join(dir, 'e2e.db');
      const all = Array.from({ length: ROWS }, (_, i) => sampleRow(i, { markers: { on_policy: i % 3 === 0 ? 0 : 1 } }));
      const { dataset_id: id } = await json(['import', writeJsonl(dir, 'marked.jsonl', all), '--json', '--db', db]);
      await page.goto(`${url}#/datasets/${id}`);
      const foot = page.locator('.rows-foot');
      await foot.filter({ hasText: `${ROWS} rows` }).waitFor();
      const filter = page.getByTestId('rows-marker-filter').getByTestId('filter-marker');
      await filter.focus();
      await filter.locator('option[value="0:on_policy"]').waitFor({ state: 'attached' });
      await filter.selectOption('0:on_policy');
      const expected = all.filter((_, i) => i % 3 === 0);
      await foot.filter({ hasText: `${expected.length} rows` }).waitFor();
      const tasks = await page.locator('.rows-body [role=row] .c-task').evaluateAll((cells) => cells.map((cell) => cell.textContent));
      assert.deepEqual([...tasks].sort(), expected.map((row) => row.scenario_id).sort());
      await filter.selectOption('');
      await foot.filter({ hasText: `${ROWS} rows` }).waitFor();
    },
  },
];
