// Sweeps and verdicts in the browser (issue 11): a seeded sweep's ranked table and sweep dots, and an agent's
// verdict line, checks and versions-over-time plot, as `while-desk sweep` and `while-desk verdict` compute them.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { runCli } from './harness.mjs';

export default [
  {
    name: 'a seeded sweep: list, ranked table, sweep dots saved as figure JSON',
    async run({ page, url, dir }) {
      const db = path.join(dir, 'e2e.db');
      assert.equal((await runCli(['init', path.join(dir, 'ex')])).code, 0);
      const variants = path.join(dir, 'variants.json');
      fs.writeFileSync(variants, JSON.stringify([
        { label: 'careful@seeded', system_prompt: 'Be careful.', agent: { kind: 'seeded', misbehave_rate: 0.05, seed: 1 } },
        { label: 'hasty@seeded', system_prompt: 'Be fast.', agent: { kind: 'seeded', misbehave_rate: 0.6, seed: 2 } },
      ]));
      const made = await runCli(['sweep', '--tasks', path.join(dir, 'ex/tasks.jsonl'), '--variants', variants, '--judge', path.join(dir, 'ex/judge.mjs'), '--k', '4', '--db', db, '--json']);
      assert.equal(made.code, 0, made.err);
      const report = JSON.parse(made.out.trim().split('\n').at(-1));
      await page.goto(`${url}#/compare/sweeps`);
      await page.getByRole('table', { name: 'Sweeps' }).getByRole('link').first().click();
      const ranked = page.getByRole('table', { name: 'Ranked variants' });
      await ranked.waitFor({ timeout: 20_000 });
      const labels = await ranked.locator('tbody tr td:first-child').allInnerTexts();
      assert.deepEqual(labels, report.variants.map((v) => v.label));
      assert.equal(await page.getByTestId('sweep-status').innerText(), 'done');
      assert.match(await page.getByLabel('Sweep report').innerText(), /under 50: the verdict stays unproven/);
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Save figure JSON' }).click()]);
      assert.equal(download.suggestedFilename(), 'sweep-dots.json');
      const figure = JSON.parse(fs.readFileSync(await download.path(), 'utf8'));
      assert.deepEqual(figure.data.map((t) => t.name), ['seeded']);
      assert.deepEqual(figure.data[0].x, ['careful', 'hasty']);
    },
  },
  {
    name: 'an agent verdict: the one line, the eight checks, promote from the page',
    async run({ page, url, dir }) {
      const db = path.join(dir, 'e2e.db');
      assert.equal((await runCli(['init', path.join(dir, 'ex')])).code, 0);
      for (const [version, rate] of [['v1', '0.9'], ['v2', '0']]) {
        const made = await runCli(['run', '--tasks', path.join(dir, 'ex/tasks.jsonl'), '--agent', 'seeded', '--misbehave-rate', rate, '--k', '4', '--judge', path.join(dir, 'ex/judge.mjs'), '--agent-name', 'bot', '--version', version, '--db', db, '--json']);
        assert.equal(made.code, 0, made.err);
      }
      assert.equal((await runCli(['promote', 'bot', 'v1', '--db', db])).code, 0);
      const cli = JSON.parse((await runCli(['verdict', 'bot', '--db', db, '--json'])).out);
      await page.goto(`${url}#/compare/agents`);
      await page.getByRole('link', { name: 'bot' }).click();
      const line = page.getByTestId('verdict-line');
      await line.waitFor({ timeout: 20_000 });
      assert.equal(await line.innerText(), cli.verdict.line);
      assert.equal(await page.getByRole('table', { name: 'Eval health checks' }).locator('tbody tr').count(), 8);
      await page.getByRole('figure', { name: 'pass@1 per version over time with the noise band' }).waitFor();
      await page.getByRole('button', { name: 'Promote v2' }).click();
      await page.getByText('Serving: v2').waitFor();
    },
  },
];
