// The labeling desk in Chromium against `while-desk serve`: an annotator labels 30 rows by keyboard, undoes one,
// adds a note; the labels in SQLite and the trust numbers on screen equal the statistics core's (the exported
// rows through `while-desk stats judge-trust FILE`); a second annotator's labels give a kappa.
import assert from 'node:assert/strict';
import path from 'node:path';
import Database from 'better-sqlite3';
import { runCli, sampleRow, writeJsonl } from './harness.mjs';

const ROWS = 60;

function rows() {
  return Array.from({ length: ROWS }, (_, i) => sampleRow(i, i % 4 === 0 ? { faults: { issue_refund: { mode: 'timeout' } } } : {}));
}

/** What a careful person says: the judge is right on most rows, wrong on every fifth. */
function truth(rowKey, byKey) {
  const row = byKey.get(rowKey);
  const index = Number(row.prompt.match(/order (\d+)/)[1]) - 5000;
  return index % 5 === 0 ? 1 - row.reward : row.reward;
}

async function json(args) {
  const out = await runCli(args);
  assert.equal(out.code, 0, out.err);
  return JSON.parse(out.out);
}

async function currentKey(page) {
  return page.locator('[data-testid=label-row]').getAttribute('data-row-key');
}

/** Presses a label key and waits for the next row to be painted. */
async function labelAndAdvance(page, key) {
  const before = await currentKey(page);
  await page.keyboard.press(key);
  await page.waitForFunction((was) => document.querySelector('[data-testid=label-row]')?.getAttribute('data-row-key') !== was, before);
}

async function waitStored(page, count) {
  await page.waitForFunction((n) => Number(document.querySelector('[data-testid=trust-panel]')?.getAttribute('data-stored')) >= n && !document.querySelector('[data-testid=trust-panel][aria-busy]'), count, { timeout: 20_000 });
}

export default [
  {
    name: 'label 30 rows by keyboard, undo, note; SQLite and the trust panel equal the statistics core; a second annotator gives a kappa',
    async run({ page, url, dir }) {
      const db = path.join(dir, 'e2e.db');
      const all = rows();
      const byKey = new Map(all.map((row) => [`${row.scenario_id}#${row.rollout_index}`, row]));
      const { dataset_id: id } = await json(['import', writeJsonl(dir, 'refunds.jsonl', all), '--json', '--db', db]);

      await page.goto(`${url}#/label/${id}`);
      const name = page.getByTestId('annotator-name');
      await name.waitFor();
      assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'annotator-name');
      await name.fill('ana');
      await page.keyboard.press('Enter');
      const row = page.getByTestId('label-row');
      await row.waitFor();
      await page.getByTestId('label-prompt').waitFor();

      // The verdict stays hidden until asked for.
      assert.equal(await page.getByTestId('judge-verdict').count(), 0);
      await page.keyboard.press('v');
      await page.getByTestId('judge-verdict').waitFor();
      await page.keyboard.press('?');
      await page.getByTestId('cheatsheet').waitFor();
      await page.keyboard.press('Escape');
      await page.getByTestId('cheatsheet').waitFor({ state: 'detached' });

      const given = new Map();
      let sawFault = false;
      for (let i = 0; i < 30; i++) {
        const key = await currentKey(page);
        await page.getByTestId('label-prompt').waitFor();
        if (await page.locator('[data-testid=tool-step][data-fault]').count()) sawFault = true;
        assert.equal(await row.getAttribute('data-label'), '');
        const value = truth(key, byKey);
        given.set(key, value);
        await labelAndAdvance(page, i % 2 ? (value ? 'p' : 'f') : String(value));
      }
      assert.ok(sawFault, 'an injected fault was marked on a tool step');
      // Both judge classes come early (stratified order).
      assert.ok(new Set([...given.keys()].slice(0, 4).map((key) => byKey.get(key).reward)).size === 2);

      // Undo the last label: it appends a withdrawal and goes back to that row.
      const last = [...given.keys()].at(-1);
      await page.keyboard.press('u');
      await page.waitForFunction((k) => document.querySelector('[data-testid=label-row]')?.getAttribute('data-row-key') === k, last);
      assert.equal(await row.getAttribute('data-label'), '');
      given.delete(last);
      // A note on the row before it.
      await page.keyboard.press('k');
      const noted = await currentKey(page);
      assert.equal(await row.getAttribute('data-label'), String(given.get(noted)));
      await page.keyboard.press('n');
      await page.getByTestId('label-note').fill('refund amount checked against the order');
      await page.keyboard.press('Enter');
      await waitStored(page, 32);

      // SQLite: 30 labels, 1 withdrawal, 1 note record; the current labels are the ones given.
      const sqlite = new Database(db, { readonly: true });
      const records = sqlite.prepare('SELECT row_key, annotator, kind, value, note FROM labels WHERE dataset_id = ? ORDER BY id').all(id)
        .map((record) => ({ ...record, value: record.value === null ? null : Number(record.value) }));
      sqlite.close();
      assert.equal(records.length, 32);
      assert.deepEqual(records.at(-2), { row_key: last, annotator: 'ana', kind: 'human', value: null, note: null });
      assert.deepEqual(records.at(-1), { row_key: noted, annotator: 'ana', kind: 'human', value: given.get(noted), note: 'refund amount checked against the order' });
      const current = new Map();
      for (const record of records) current.set(record.row_key, record.value);
      for (const [key, value] of given) assert.equal(current.get(key), value, key);
      assert.equal(current.get(last), null);

      // The trust panel against the statistics core over the exported rows (gold stamped as attach_labels does).
      const exported = path.join(dir, 'export.jsonl');
      assert.equal((await runCli(['export', id, exported, '--db', db])).code, 0);
      const core = await json(['stats', 'judge-trust', exported, '--json']);
      const fmt = (x) => String(Number(x.toFixed(4)));
      const panel = page.getByTestId('trust-panel');
      await page.waitForFunction((n) => document.querySelector('[data-testid=trust-n]')?.textContent === String(n), core.agreement.n);
      assert.equal(core.agreement.n, 29);
      assert.equal(await panel.getByTestId('trust-agreement').innerText(), fmt(core.agreement.agreement));
      assert.equal(await panel.getByTestId('trust-ci').innerText(), `[${fmt(core.agreement.ci95[0])}, ${fmt(core.agreement.ci95[1])}]`);
      assert.equal(await panel.getByTestId('trust-kappa').innerText(), fmt(core.agreement.kappa));
      assert.equal(await panel.getByTestId('trust-n-gold').innerText(), String(core.skipped.n_gold));
      assert.match(await panel.getByTestId('trust-half-a').innerText(), new RegExp(`^Half a: ${fmt(core.held_out_halves.a.agreement).replace('.', '\\.')}`));
      assert.match(await panel.getByTestId('trust-verdict').innerText(), /(Inconclusive|Fails|Trusted).*80\.0%/);

      // A second annotator labels ten of the same rows: the pair's kappa shows, equal to `while-desk labels ID`.
      await page.getByRole('button', { name: 'Change name' }).click();
      await page.getByTestId('annotator-name').fill('ben');
      await page.keyboard.press('Enter');
      await row.waitFor();
      for (let i = 0; i < 10; i++) {
        const key = await currentKey(page);
        const mine = i < 7 ? truth(key, byKey) : 1 - truth(key, byKey);
        await labelAndAdvance(page, String(mine));
      }
      await waitStored(page, 42);
      const summary = await json(['labels', id, '--json', '--db', db]);
      const pair = summary.pairs.find((p) => p.a === 'ana' && p.b === 'ben');
      assert.ok(pair && pair.n === 10, JSON.stringify(summary.pairs));
      await page.waitForFunction((k) => document.querySelector('[data-testid=pair-kappa]')?.textContent === k, pair.kappa === null ? '—' : fmt(pair.kappa));

      // Probe the judge from the panel (a typed path: a browser has no file dialog): each probe's rate and interval
      // as judge_trust with the same judge and probes="all" gives them.
      const judgePath = path.resolve('test/fixtures/conformance/judges/len_over_400.mjs');
      await panel.getByTestId('probe-open').click();
      await panel.locator('#judge').fill(judgePath);
      await panel.getByTestId('probe-run').click();
      await panel.getByTestId('probe-report').waitFor({ timeout: 30_000 });
      // The probes read the judge's rewards, not the labels: the rows exported above serve.
      const probed = await json(['stats', 'judge-trust', exported, '--judge', judgePath, '--probes', 'all', '--json']);
      const pctText = (x) => (typeof x === 'number' ? `${(x * 100).toFixed(1)}%` : '—');
      const shown = panel.getByTestId('probe-row');
      assert.equal(await shown.count(), Object.keys(probed.probes.probes).length);
      for (const [name, entry] of Object.entries(probed.probes.probes)) {
        if (entry.skipped) continue;
        const probeRow = panel.locator(`[data-testid=probe-row][data-probe=${name}]`);
        assert.equal(await probeRow.getByTestId('probe-rate').innerText(), pctText(entry.exploit_rate), name);
      }
      const exploitText = await panel.getByTestId('probe-exploitable').innerText();
      if (probed.exploitable_by.length) assert.equal(exploitText, `Exploitable by: ${probed.exploitable_by.join(', ')}`);
      else assert.match(exploitText, /^No probe flags the judge/);
    },
  },
];
