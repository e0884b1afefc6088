// A file with a bad line is refused whole (nothing imported, the line named); with "skip invalid lines" the good ones go in.
import assert from 'node:assert/strict';
import { sampleRow, writeJsonl } from './harness.mjs';

export default [
  {
    name: 'a bad line refuses the file, names the line, imports nothing; skip invalid imports the rest',
    async run({ page, url, dir }) {
      const file = writeJsonl(dir, 'mixed.jsonl', [sampleRow(0), '{"prompt": "cut off', sampleRow(1), sampleRow(2, { reward: true })]);
      await page.goto(url);
      await page.getByText('No datasets yet').waitFor();

      await page.setInputFiles('[data-testid=import-file]', file);
      const outcome = page.getByTestId('import-outcome');
      await outcome.getByText('Nothing was imported.').waitFor();
      assert.match(await outcome.innerText(), /was refused: 2 bad lines/);
      const errors = outcome.getByRole('table', { name: 'Bad lines' }).locator('tbody tr');
      assert.equal(await errors.count(), 2);
      assert.match(await errors.nth(0).innerText(), /^2\s+\S/);
      assert.match(await errors.nth(1).innerText(), /^4\s+.*boolean/);
      assert.equal(await page.getByRole('table', { name: 'Datasets' }).count(), 0);
      await page.getByText('No datasets yet').waitFor();

      await page.getByLabel('Skip invalid lines').check();
      await page.setInputFiles('[data-testid=import-file]', file);
      await outcome.getByText('Imported 2 rows from').waitFor();
      assert.match(await outcome.innerText(), /skipped 2 bad lines/);
      const listed = page.getByRole('table', { name: 'Datasets' }).getByRole('row').filter({ hasText: 'mixed' });
      assert.match(await listed.innerText(), /\b2\b/);
    },
  },
];
