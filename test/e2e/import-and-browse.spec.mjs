// Import a JSONL file through the file input, see its rows, sort them, open one and walk with j/k.
import assert from 'node:assert/strict';
import { sampleRow, writeJsonl } from './harness.mjs';

export default [
  {
    name: 'import a file, see its rows, open one with its tool steps',
    async run({ page, url, dir }) {
      const file = writeJsonl(dir, 'refunds.jsonl', [0, 1, 2, 3, 4].map((i) => sampleRow(i)));
      await page.goto(url);
      await page.getByRole('heading', { name: 'Runs and datasets' }).waitFor();
      await page.getByText('No datasets yet').waitFor();

      await page.setInputFiles('[data-testid=import-file]', file);
      const outcome = page.getByTestId('import-outcome');
      await outcome.getByText('Imported 5 rows from').waitFor();
      const listed = page.getByRole('table', { name: 'Datasets' }).getByRole('row').filter({ hasText: 'refunds' });
      await listed.waitFor();
      assert.match(await listed.innerText(), /import\s+\S+\s+5\b/);

      await listed.getByRole('link', { name: 'refunds' }).click();
      const lines = page.locator('.rows-line[data-ordinal]');
      await lines.nth(4).waitFor();
      assert.equal(await lines.count(), 5);
      assert.match(await lines.nth(0).innerText(), /refund-0/);
      assert.match(await page.locator('.rows-foot').innerText(), /5 rows/);

      // Sort by reward, highest first: the first row must have reward 1.
      await page.getByRole('button', { name: /^Reward/ }).click();
      await page.locator('[aria-sort=descending]').getByText('Reward').waitFor();
      await page.waitForFunction(() => document.querySelector('.rows-line[data-ordinal] .c-reward')?.textContent === '1');

      // Back to file order, open row 2 (scenario refund-1, rollout 0).
      await page.getByRole('button', { name: /^#/ }).click();
      await page.waitForFunction(() => document.querySelector('.rows-line[data-ordinal]')?.getAttribute('data-ordinal') === '0');
      await page.locator('.rows-line[data-ordinal="2"]').click();
      const view = page.getByTestId('row-view');
      await view.getByText('Please refund order 5002').waitFor();
      const steps = view.getByTestId('tool-step');
      assert.equal(await steps.count(), 2);
      assert.match(await steps.nth(0).innerText(), /lookup_order[\s\S]*"order_id": 5002[\s\S]*"status": "delivered"/);
      assert.match(await steps.nth(1).innerText(), /issue_refund[\s\S]*"refund_id": "R-2"/);
      assert.match(await view.getByTestId('row-reply').innerText(), /I refunded order 5002/);
      assert.match(await view.getByRole('table', { name: 'Markers' }).innerText(), /grounded\s+1/);
      assert.match(await view.innerText(), /refund_rules/);

      await page.keyboard.press('j');
      await view.getByText('Please refund order 5003').waitFor();
      await page.keyboard.press('k');
      await page.keyboard.press('k');
      await view.getByText('Please refund order 5001').waitFor();
      await page.keyboard.press('Escape');
      await view.waitFor({ state: 'detached' });
    },
  },
  {
    name: 'a file dropped on the import area is imported',
    async run({ page, url }) {
      await page.goto(url);
      await page.getByText('No datasets yet').waitFor();
      const text = [sampleRow(0), sampleRow(1), sampleRow(2)].map((row) => JSON.stringify(row)).join('\n') + '\n';
      const drop = await page.evaluateHandle((content) => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([content], 'dropped.jsonl', { type: 'application/x-ndjson' }));
        return transfer;
      }, text);
      await page.locator('.dropzone').dispatchEvent('dragover', { dataTransfer: drop });
      await page.locator('.dropzone').dispatchEvent('drop', { dataTransfer: drop });
      await page.getByTestId('import-outcome').getByText('Imported 3 rows from').waitFor();
      const listed = page.getByRole('table', { name: 'Datasets' }).getByRole('row').filter({ hasText: 'dropped' });
      assert.match(await listed.innerText(), /\b3\b/);
    },
  },
];
