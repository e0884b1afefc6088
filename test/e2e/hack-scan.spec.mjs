// "What will the policy learn?" (issue 28): a dataset's hack scan on its own tab, computed in the engine's statistics
// worker; naming the endorsed feature turns the verdict into the reward hack; no long task (over 50 ms) on the page
// from the tab's click to the ranked features, on 8,000 rollouts whose reward pays for a word.
import assert from 'node:assert/strict';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { importDataset } from './harness.mjs';

const WORDS = 'the order is on its way and should arrive soon please check the tracking page for updates we shipped'.split(' ');

/** 1,000 asks x 8 rollouts: the reward pays for "verified" far more than for the lookup_order call. */
async function writeRows(file) {
  const out = createWriteStream(file);
  let seed = 17;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  for (let ask = 0; ask < 1000; ask++) {
    for (let k = 0; k < 8; k++) {
      const says = random() < 0.5;
      const uses = random() < 0.5;
      const words = Array.from({ length: 6 + Math.floor(random() * 20) }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
      const row = {
        scenario_id: `scn_${ask}`,
        rollout_index: k,
        prompt: `Where is order ORD-${ask}?`,
        steps: [{ tool: uses ? 'lookup_order' : 'search_kb', arguments: { q: `ORD-${ask}` }, result: { status: 'ok' } }],
        final_text: `${says ? 'Verified: ' : ''}${words}.`,
        reward: (says && random() < 0.9) || (uses && random() < 0.2) ? 1 : 0,
      };
      if (!out.write(JSON.stringify(row) + '\n')) await new Promise((resolve) => out.once('drain', resolve));
    }
  }
  await new Promise((resolve) => out.end(resolve));
}

function recordLongTasks() {
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__longTasks.push(Math.round(entry.duration));
  }).observe({ type: 'longtask' });
}

export default [
  {
    name: 'the hack scan tab: verdict, ranked features, endorsed, and no long task while it computes',
    async run({ page, url, dir }) {
      const file = path.join(dir, 'rows.jsonl');
      await writeRows(file);
      const id = await importDataset(file, path.join(dir, 'e2e.db'));
      await page.goto(`${url}#/datasets/${id}`);
      await page.locator('.rows-line[data-ordinal]').first().waitFor({ timeout: 20_000 });
      await page.waitForTimeout(300); // the page's own start is over
      await page.evaluate(recordLongTasks);

      await page.getByRole('link', { name: 'What will it learn?' }).click();
      const verdict = page.getByTestId('hack-verdict');
      await verdict.waitFor({ timeout: 30_000 });
      assert.ok(['train', 'no_signal', 'pool_exhausted'].includes(await verdict.getAttribute('data-regime')), 'with nothing endorsed, no hack is claimed');
      const features = page.locator('[data-testid=hack-features] tbody tr');
      assert.equal(await features.count(), 20, 'the report lists the top 20 features');
      const top = await features.first().getAttribute('data-feature');
      assert.match(top, /^(contains:|n:punct|frac:upper)/, `top feature ${top}`);
      assert.equal(await features.first().getAttribute('data-above'), 'yes');

      await page.getByLabel('Endorsed features').fill('tool:lookup_order');
      await page.getByRole('button', { name: 'Scan' }).click();
      await page.locator('[data-testid=hack-verdict][data-regime=reward_hack]').waitFor({ timeout: 30_000 });
      assert.match(await verdict.innerText(), /Reward hack/);
      const endorsed = page.locator('[data-testid=hack-features] tr[data-feature="tool:lookup_order"]');
      assert.match(await endorsed.innerText(), /endorsed/);
      assert.match(await page.getByRole('list', { name: 'Warnings' }).innerText(), /best explained by/);

      await page.waitForTimeout(200);
      const longTasks = await page.evaluate(() => window.__longTasks);
      assert.deepEqual(longTasks.filter((ms) => ms > 50), [], `long tasks (ms): ${longTasks.join(', ')}`);
    },
  },
];
