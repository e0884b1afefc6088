// The Sync screen against the fake While platform: nothing is sent before sign-in; sign in with the device
// code; push a dataset; the outbox shows it done; the account's datasets list it; pull brings it back; a push the
// storage refuses fails at once with the reason and goes when its Retry is pressed.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCli, startServe } from './harness.mjs';
import { startFakeWhilePlatform } from '../fixtures/fake-while-platform.mjs';

/** A serve of its own whose engine talks to the fake (the runner's serve knows no platform). */
async function serveWithPlatform(dir, fake) {
  const saved = { ...process.env };
  Object.assign(process.env, { WHILEAI_HOME: path.join(dir, 'whileai'), WHILEAI_API_URL: fake.url, WHILEAI_PLATFORM_URL: fake.url });
  delete process.env.WHILEAI_API_KEY;
  try {
    return startServe(path.join(dir, 'sync.db'));
  } finally {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  }
}

export default [
  {
    name: 'sign in, push a dataset, see it done in the outbox, list and pull it',
    async run({ page, dir }) {
      const fake = await startFakeWhilePlatform();
      const rows = Array.from({ length: 8 }, (_, i) => JSON.stringify({ schema_version: '1', prompt: `q${i}`, final_text: `a${i}`, steps: [], scenario_id: `t${i >> 1}`, reward: i % 2 }));
      writeFileSync(path.join(dir, 'rows.jsonl'), rows.join('\n') + '\n');
      const imported = await runCli(['import', path.join(dir, 'rows.jsonl'), '--db', path.join(dir, 'sync.db'), '--dataset', 'local-set', '--json']);
      assert.equal(imported.code, 0, imported.err);
      const serve = await serveWithPlatform(dir, fake);
      try {
        await page.goto(`${await serve.url}#/sync`);
        await page.getByText('Not signed in').waitFor();
        assert.equal(fake.requests.length, 0, 'nothing may be sent before sign-in');

        await page.getByRole('button', { name: 'Sign in' }).click();
        const code = (await page.locator('strong.mono').innerText()).trim();
        fake.approve(code, 'user_e2e');
        await page.getByText('Logged in. Key saved to').waitFor();
        await page.getByText(/zp_.{4}\.\.\./).waitFor();

        // Push from the dataset's own page: its Push link opens Sync with the dataset chosen.
        const datasetId = JSON.parse(imported.out).dataset_id;
        await page.goto(`${await serve.url}#/datasets/${datasetId}`);
        await page.getByTestId('push-link').click();
        await page.getByText(/zp_.{4}\.\.\./).waitFor();
        assert.equal(await page.getByLabel('Dataset or run').inputValue(), datasetId);
        await page.getByLabel('Name on the platform').fill('from-the-screen');
        await page.getByRole('button', { name: 'Push' }).click();
        await page.getByText(/Pushed as ds_\w+ \(8 rows\)/).waitFor();
        await page.getByRole('table', { name: 'Outbox' }).getByText('done').waitFor();
        const [remote] = fake.datasets();
        assert.equal(remote.name, 'from-the-screen');
        assert.equal(remote.rows, 8);

        await page.getByRole('button', { name: /List the account/ }).click();
        await page.getByRole('table', { name: 'Platform datasets' }).getByText('from-the-screen').waitFor();
        await page.getByRole('button', { name: 'Pull' }).click();
        await page.getByText(new RegExp(`Pulled ${remote.datasetId} into ds-\\w+ \\(8 rows\\)`)).waitFor();

        // Storage that refuses the upload (S3's 501): the item fails at once, says why, and its Retry sends it.
        fake.fault('PUT /_s3/:id', { kind: 'status', status: 501, body: '<Error><Code>NotImplemented</Code><Message>A header you provided implies functionality that is not implemented</Message><Header>Transfer-Encoding</Header></Error>' });
        await page.goto(`${await serve.url}#/datasets/${datasetId}`);
        await page.getByTestId('push-link').click();
        await page.getByText(/zp_.{4}\.\.\./).waitFor();
        await page.getByLabel('Name on the platform').fill('refused-once');
        await page.getByRole('button', { name: 'Push' }).click();
        const outbox = page.getByRole('table', { name: 'Outbox' });
        await outbox.getByText(/NotImplemented.*header Transfer-Encoding/).waitFor();
        await outbox.getByRole('button', { name: /^Retry item/ }).click();
        await page.waitForFunction(() => document.querySelectorAll('table[aria-label="Outbox"] tr[data-state="failed"]').length === 0);
        // The row leaves `failed` as soon as it is queued again; the upload itself finishes a moment later.
        const readyRefusedOnce = () => fake.datasets().filter((ds) => ds.name === 'refused-once' && ds.status === 'ready').length;
        for (let waited = 0; readyRefusedOnce() === 0 && waited < 10_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
        assert.equal(readyRefusedOnce(), 1);
      } finally {
        await serve.stop();
        await fake.close();
      }
    },
  },
];
