// The compare screen (issue 11): two offline seeded runs, the paired reading at #/compare/A/B, tasks red and green,
// a click opens both sides of a task; the picker builds the same address.
import assert from 'node:assert/strict';
import path from 'node:path';
import { runCli } from './harness.mjs';

async function seededRun(db, dir, rate) {
  const made = await runCli(['run', '--tasks', path.join(dir, 'ex/tasks.jsonl'), '--agent', 'seeded', '--k', '4', '--judge', path.join(dir, 'ex/judge.mjs'), '--misbehave-rate', rate, '--db', db, '--json']);
  assert.equal(made.code, 0, made.err);
  return JSON.parse(made.out.trim().split('\n').at(-1)).run_id;
}

export default [
  {
    name: 'compare two seeded runs: headline, metrics, per-task table and both sides of a task',
    async run({ page, url, dir }) {
      const db = path.join(dir, 'e2e.db');
      assert.equal((await runCli(['init', path.join(dir, 'ex')])).code, 0);
      const baseline = await seededRun(db, dir, '0.8');
      const candidate = await seededRun(db, dir, '0.05');
      await page.goto(`${url}#/compare/${baseline}/${candidate}`);
      const headline = page.getByTestId('compare-headline');
      await headline.waitFor({ timeout: 20_000 });
      assert.ok((await headline.getAttribute('data-verdict'))?.length);
      assert.match(await page.getByTestId('compare-target-delta').innerText(), /^[+-]\d\.\d{3}$/);
      const tasks = page.locator('[data-testid=compare-tasks] .task-line');
      await tasks.first().waitFor();
      assert.equal(await tasks.count(), 6);
      const statuses = await tasks.evaluateAll((lines) => lines.map((line) => line.getAttribute('data-status')));
      assert.ok(statuses.includes('improved'), `statuses: ${statuses.join(', ')}`);
      const rank = { regressed: 0, same: 1, improved: 2, only_baseline: 3, only_candidate: 3 };
      assert.deepEqual(statuses, [...statuses].sort((a, b) => rank[a] - rank[b]), 'worst regression first');
      // Show, sort and filter: the rows drawn are those asked for, in the order asked for.
      const names = () => tasks.evaluateAll((lines) => lines.map((line) => line.getAttribute('data-task')));
      const all = await names();
      await page.getByLabel('Show').selectOption('improved');
      assert.deepEqual(await tasks.evaluateAll((lines) => lines.map((line) => line.getAttribute('data-status'))), statuses.filter((s) => s === 'improved'));
      await page.getByLabel('Show').selectOption('all');
      await page.getByLabel('Sort by').selectOption('task');
      assert.deepEqual(await names(), [...all].sort());
      await page.getByLabel('Filter tasks').fill(all[0]);
      assert.deepEqual(await names(), all.filter((name) => name.toLowerCase().includes(all[0].toLowerCase())).sort());
      await page.getByLabel('Filter tasks').fill('');
      await page.getByLabel('Sort by').selectOption('regression');
      assert.deepEqual(await names(), all);
      await tasks.first().click();
      const sides = page.getByTestId('compare-task-rows');
      await sides.getByText('rollout 0').first().waitFor();
      assert.equal(await sides.locator('.task-side').count(), 2);
      assert.ok((await sides.locator('.task-rollout').count()) >= 2);

      // The paired-differences plot saves as the platform's figure JSON, checked by its rules first.
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Save figure JSON' }).click()]);
      assert.equal(download.suggestedFilename(), 'per-task-paired-differences.json');
      const figure = JSON.parse(await (await import('node:fs/promises')).readFile(await download.path(), 'utf8'));
      assert.equal(figure.data.length, 1);
      assert.equal(figure.data[0].type, 'scatter');
      assert.ok(figure.layout.yaxis);
      // Drawn when asked (the screen opens without loading Plotly): by its button, or by Save PNG, which draws it first.
      const plot = page.getByRole('figure', { name: 'Per-task paired differences, sorted' });
      assert.equal(await plot.locator('.main-svg').count(), 0);
      const [png] = await Promise.all([page.waitForEvent('download', { timeout: 20_000 }), plot.getByRole('button', { name: 'Save PNG' }).click()]);
      assert.equal(png.suggestedFilename(), 'per-task-paired-differences.png');
      assert.ok((await plot.locator('.main-svg').count()) > 0);
      assert.equal(await plot.getByRole('button', { name: /^Draw the plot/ }).count(), 0);

      await page.goto(`${url}#/compare`);
      await page.getByTestId('compare-baseline').selectOption(baseline);
      await page.getByTestId('compare-candidate').selectOption(candidate);
      await page.getByRole('button', { name: 'Compare' }).click();
      await page.getByTestId('compare-headline').waitFor({ timeout: 20_000 });
      assert.match(page.url(), new RegExp(`#/compare/${baseline}/${candidate}$`));
    },
  },
];
