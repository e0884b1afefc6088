// The run screens (issue 4): start a seeded run from the form, follow it to done, cancel and resume, bad task
// files refused with line numbers, and the model picker listing a GGUF from an added folder.
import assert from 'node:assert/strict';
import path from 'node:path';
import { writeTinyGguf } from '../fixtures/make-tiny-gguf.mjs';
import { ROOT } from './harness.mjs';

const TASKS = path.join(ROOT, 'test/fixtures/tasks/support.jsonl');
const BAD_TASKS = path.join(ROOT, 'test/fixtures/tasks/bad-tasks.jsonl');
const JUDGE = path.join(ROOT, 'test/fixtures/tasks/reference-judge.mjs');

async function openNewRun(page, url) {
  await page.goto(url);
  await page.getByRole('link', { name: 'New run' }).click();
  await page.getByRole('heading', { name: 'New run' }).waitFor();
}

export default [
  {
    name: 'a seeded run started from the form runs to done, graded, and its rows open',
    async run({ page, url }) {
      await openNewRun(page, url);
      await page.setInputFiles('[data-testid=task-file]', TASKS);
      await page.getByLabel('k (answers per task)').fill('5');
      await page.getByLabel('Judge').fill(JUDGE);
      await page.getByRole('button', { name: 'Start run' }).click();
      await page.getByTestId('run-status').filter({ hasText: 'done' }).waitFor({ timeout: 30_000 });
      assert.match(await page.getByTestId('run-progress').innerText(), /40 of 40 rollouts/);
      assert.match(await page.locator('dl.facts').innerText(), /pass@1\s+0\.\d+|pass@1\s+1\.000/);
      await page.getByRole('link', { name: 'Rows' }).click();
      await page.locator('.rows-line[data-ordinal]').first().waitFor();
      assert.match(await page.locator('.rows-foot').innerText(), /40 rows/);
    },
  },
  {
    name: 'a long run can be cancelled and resumed, and its rows grow on screen while it runs',
    async run({ page, url }) {
      await openNewRun(page, url);
      await page.setInputFiles('[data-testid=task-file]', TASKS);
      await page.getByLabel('k (answers per task)').fill('10000');
      await page.getByLabel('Concurrency').fill('2');
      await page.getByRole('button', { name: 'Start run' }).click();
      await page.getByTestId('run-status').filter({ hasText: 'running' }).waitFor({ timeout: 20_000 });
      await page.getByRole('button', { name: 'Cancel' }).click();
      await page.getByTestId('run-status').filter({ hasText: 'cancelled' }).waitFor({ timeout: 20_000 });
      const stopped = await page.getByTestId('run-progress').innerText();
      const done = Number(/([\d,]+) of 80,000/.exec(stopped)?.[1].replace(/,/g, ''));
      assert.ok(done < 80_000, `cancelled with ${done} of 80,000 done`);
      await page.getByRole('button', { name: 'Resume' }).click();
      await page.getByTestId('run-status').filter({ hasText: 'running' }).waitFor({ timeout: 20_000 });

      // The rows of the running run grow on screen as rollouts land.
      await page.getByRole('link', { name: 'Rows' }).click();
      const rowCount = async () => Number((/([\d,]+) rows/.exec(await page.locator('.rows-foot').innerText())?.[1] ?? '0').replace(/,/g, ''));
      await page.locator('.rows-line[data-ordinal]').first().waitFor();
      const seen = await rowCount();
      await page.waitForFunction((before) => {
        const match = /([\d,]+) rows/.exec(document.querySelector('.rows-foot')?.textContent ?? '');
        return match && Number(match[1].replace(/,/g, '')) > before;
      }, seen, { timeout: 15_000 });
      await page.goBack();
      await page.getByRole('button', { name: 'Cancel' }).click();
      await page.getByTestId('run-status').filter({ hasText: 'cancelled' }).waitFor({ timeout: 20_000 });
    },
  },
  {
    name: 'a bad task file is refused with its line numbers and nothing runs',
    async run({ page, url }) {
      await openNewRun(page, url);
      await page.setInputFiles('[data-testid=task-file]', BAD_TASKS);
      await page.getByRole('button', { name: 'Start run' }).click();
      const problem = page.getByTestId('run-problem');
      await problem.waitFor();
      assert.match(await problem.innerText(), /did not start/);
      const lines = problem.getByRole('table', { name: 'Bad task lines' }).locator('tbody tr');
      assert.ok((await lines.count()) >= 2);
      assert.match(await lines.nth(0).innerText(), /^2\s+\S/);
      await page.goto(url);
      await page.getByText('No datasets yet').waitFor();
    },
  },
  {
    name: 'the model picker lists a GGUF from an added folder with size and quantization',
    async run({ page, url, dir }) {
      const models = path.join(dir, 'models');
      (await import('node:fs')).mkdirSync(models);
      writeTinyGguf(path.join(models, 'tiny-test.gguf'));
      await page.goto(url);
      await page.getByRole('link', { name: 'Models' }).click();
      await page.getByRole('heading', { name: 'Models' }).waitFor();
      await page.getByPlaceholder('/path/to/folder/with/gguf/files').fill(models);
      await page.getByRole('button', { name: 'Add folder' }).click();
      const row = page.getByRole('table', { name: 'Models' }).getByRole('row').filter({ hasText: 'tiny-test' });
      await row.waitFor();
      const text = await row.innerText();
      assert.match(text, /\d+(\.\d)? (KiB|MiB|B)/);
      assert.match(text, /F32|F16|Q\d/);
      assert.match(text, /added folder/);

      await page.goto(`${url}#/runs/new`);
      await page.getByLabel('Agent').selectOption('llama');
      const picker = page.getByLabel('Model');
      await picker.waitFor();
      assert.match(await picker.innerText(), /tiny-test/);
    },
  },
];
