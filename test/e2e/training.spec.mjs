// The "Export for training" screen (issue 29) in Chromium against `while-desk serve`: the counts follow the choices,
// three rows as they will be written, the file as a download; on 100k rows, progress and a cancel that writes nothing.
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { writeTrainingRows } from '../bench/training-rows.mjs';
import { importDataset } from './harness.mjs';

/** A readable integer off a count cell ("1,234" -> 1234). */
const count = async (locator) => Number((await locator.innerText()).replace(/[^\d]/g, ''));

export default [
  {
    name: 'export for training: counts follow the choices, three samples, the file downloaded as the preview showed it',
    async run({ page, url, dir }) {
      const db = path.join(dir, 'e2e.db');
      const rows = path.join(dir, 'rows.jsonl');
      await writeTrainingRows(rows, 2000);
      const id = await importDataset(rows, db);
      const evalFile = path.join(dir, 'eval.jsonl');
      await writeFile(evalFile, [0, 1, 2].map((t) => JSON.stringify({ schema_version: '1', scenario_id: `task-${t}`, prompt: `eval ${t}`, steps: [], final_text: 'x' })).join('\n') + '\n');
      const evalId = await importDataset(evalFile, db);

      await page.goto(`${url}#/datasets/${id}/train`);
      await page.getByTestId('training-panel').waitFor();
      await page.getByTestId('train-stage-read').waitFor({ timeout: 20_000 });
      assert.equal(await count(page.getByTestId('train-stage-read')), 2000);
      assert.equal(await count(page.getByTestId('train-stage-export')), 2000);
      assert.equal(await page.getByTestId('train-sample').count(), 3);

      // SFT selection: one row per prompt at most, the rule counts shown.
      await page.getByTestId('train-select').selectOption('top_per_prompt');
      await page.getByTestId('train-stage-select').waitFor({ timeout: 20_000 });
      const selected = await count(page.getByTestId('train-stage-select'));
      assert.ok(selected > 0 && selected <= 500, `selected ${selected}`);
      await page.getByText('Dropped: n_not_pass').waitFor();

      // Decontaminate against the eval set: its three tasks' passing rows go.
      await page.getByTestId(`train-against-${evalId}`).check();
      await page.getByTestId('train-stage-decontaminate').waitFor({ timeout: 20_000 });
      assert.equal(await count(page.getByTestId('train-contaminated')), 12);

      // The TRL shape with tool output cut: the counts say what the cut saves, the samples show the shape.
      await page.getByTestId('train-format-trl').check();
      await page.getByTestId('train-max-tool').fill('80');
      await page.waitForFunction(() => /[1-9]/.test(document.querySelector('[data-testid=train-tool-cut]')?.textContent?.split('messages')[0] ?? ''), null, { timeout: 20_000 });
      await page.waitForFunction(() => (document.querySelector('[data-testid=train-sample]')?.textContent ?? '').includes('"prompt_text"'), null, { timeout: 20_000 });
      const sample = await page.getByTestId('train-sample').first().innerText();
      assert.ok(!sample.includes('"loss_mask"'), 'TRL rows carry no loss_mask');
      assert.match(sample, /\[\.\.\. \d+ chars of tool output truncated\]/);
      const written = await count(page.getByTestId('train-stage-export'));

      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('train-export').click()]);
      assert.match(download.suggestedFilename(), /\.trl\.jsonl$/);
      const text = await readFile(await download.path(), 'utf8');
      const lines = text.trim().split('\n');
      assert.equal(lines.length, written);
      assert.equal(`${lines[0]}\n`, sample.endsWith('\n') ? sample : `${sample}\n`);
      await page.getByTestId('train-note').getByText(/downloaded .*\.trl\.jsonl/).waitFor();
    },
  },
  {
    name: 'export for training on 100k rows: progress, then cancel writes nothing',
    async run({ page, url, dir }) {
      const db = path.join(dir, 'e2e.db');
      const rows = path.join(dir, 'rows.jsonl');
      await writeTrainingRows(rows, 100_000);
      const id = await importDataset(rows, db);
      await page.goto(`${url}#/datasets/${id}/train`);
      await page.getByTestId('training-panel').waitFor();
      let downloaded = false;
      page.on('download', () => (downloaded = true));
      await page.getByTestId('train-export').click();
      await page.waitForFunction(() => /writing [1-9]/.test(document.querySelector('[data-testid=train-progress]')?.textContent ?? ''), null, { timeout: 40_000 });
      await page.getByTestId('train-cancel').click();
      await page.getByTestId('train-note').getByText('Cancelled: no file was written.').waitFor({ timeout: 10_000 });
      assert.equal(downloaded, false);
      assert.equal(await page.getByTestId('train-cancel').count(), 0);
    },
  },
];
