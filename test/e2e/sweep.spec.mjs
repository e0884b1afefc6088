// Sweeps and verdicts in the browser (issue 11): a seeded sweep's ranked table and sweep dots, and an agent's
// verdict line, checks and versions-over-time plot, as `while-desk sweep` and `while-desk verdict` compute them;
// a sweep started, followed, cancelled and resumed from the New sweep form.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { runCli } from './harness.mjs';

/** The text of a locator once it matches `pattern` (polled; the page updates it from live events). */
async function waitForText(locator, pattern, timeout = 20_000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const text = await locator.innerText().catch(() => '');
    if (pattern.test(text)) return text;
    if (Date.now() > deadline) throw new Error(`waited ${timeout / 1000} s for ${pattern}; the page shows "${text}"`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export default [
  {
    name: 'a sweep from the form: a long label refused inline with nothing run, live progress, cancel, resume, ranked table',
    async run({ page, url, dir }) {
      assert.equal((await runCli(['init', path.join(dir, 'ex')])).code, 0);
      await page.goto(`${url}#/compare/sweeps`);
      await page.getByText('No sweeps yet.').waitFor();
      await page.getByTestId('new-sweep').click();
      const form = page.getByTestId('new-sweep-form');
      await page.setInputFiles('[data-testid=sweep-task-file]', path.join(dir, 'ex/tasks.jsonl'));
      await form.locator('#judge').fill(path.join(dir, 'ex/judge.mjs'));
      assert.equal(await form.getByTestId('sweep-noise-runs').inputValue(), '2');
      const variants = form.getByTestId('sweep-variant');
      const fill = async (i, label, rate, seed) => {
        await variants.nth(i).getByTestId('variant-label').fill(label);
        await variants.nth(i).getByTestId('variant-prompt').fill(`Prompt ${i + 1}.`);
        await variants.nth(i).getByLabel('Misbehave rate').fill(String(rate));
        await variants.nth(i).getByTestId('variant-seed').fill(String(seed));
      };
      await fill(0, 'careful@seeded', 0.05, 1);
      await form.getByTestId('add-variant').click();
      const long = 'hasty-prompt-that-is-far-too-long@seeded-agent';
      await fill(1, long, 0.6, 2);
      // Refused inline in the SDK's words, before anything runs: the button is off and no sweep exists.
      const problem = await waitForText(form.getByTestId('sweep-variants-problem'), /is 46 characters; a run version holds 40/);
      assert.match(problem, /^variant 2 label "hasty-prompt/);
      assert.equal(await form.getByTestId('start-sweep').isDisabled(), true);
      const listed = await runCli(['sweep', '--list', '--db', path.join(dir, 'e2e.db'), '--json']);
      assert.deepEqual(JSON.parse(listed.out), []);

      await variants.nth(1).getByTestId('variant-label').fill('hasty@seeded');
      assert.equal(await form.getByTestId('sweep-variants-problem').count(), 0);
      await form.locator('#sweep-k').fill('500');
      await form.getByTestId('start-sweep').click();
      await page.waitForURL(/#\/compare\/sweeps\/sweep-/);
      // Live: the status, the count moving, and each arm's run (two arms and the first arm's noise re-run).
      await waitForText(page.getByTestId('sweep-status'), /^running$/);
      await waitForText(page.getByTestId('sweep-done'), /^[1-9][\d,]* of 9,000 rollouts$/);
      const arms = page.getByTestId('sweep-arm');
      assert.equal(await arms.count(), 3);
      assert.deepEqual((await arms.locator('td:first-child').allInnerTexts()), ['careful@seeded', 'hasty@seeded', 'careful@seeded']);
      assert.match(await page.getByTestId('sweep-progress').innerText(), /noise runs 2 \(the first variant re-run 1 time\)/);

      await page.getByTestId('cancel-sweep').click();
      await waitForText(page.getByTestId('sweep-status'), /^cancelled$/);
      assert.match(await page.getByTestId('sweep-note').innerText(), /^cancelled with \d+ of 9000 rollouts kept; `while-desk resume sweep-/);
      assert.match((await arms.locator('td:nth-child(4)').allInnerTexts()).join(' '), /cancelled/);
      await page.getByTestId('resume-sweep').click();
      await waitForText(page.getByTestId('sweep-status'), /^done$/, 45_000);
      const ranked = page.getByRole('table', { name: 'Ranked variants' });
      await ranked.waitFor();
      assert.deepEqual(await ranked.locator('tbody tr td:first-child').allInnerTexts(), ['careful@seeded', 'hasty@seeded']);
      assert.match(await page.getByLabel('Sweep report').innerText(), /winner: careful@seeded/);
      await page.goto(`${url}#/compare/sweeps`);
      await waitForText(page.getByRole('table', { name: 'Sweeps' }).locator('tbody tr td:nth-child(2)'), /^done$/);
    },
  },
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
