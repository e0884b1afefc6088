// A wrong or missing token: the API does not connect and the page says so.
import assert from 'node:assert/strict';

export default [
  {
    name: 'a wrong token is refused and the page says so',
    allowConsoleErrors: true, // Chromium logs the refused WebSocket handshake
    async run({ page, url }) {
      const wrong = new URL(url);
      wrong.searchParams.set('token', 'not-the-token');
      await page.goto(wrong.href);
      const banner = page.getByRole('alert').filter({ hasText: 'refused the connection' });
      await banner.waitFor();
      await page.getByRole('heading', { name: 'Runs and datasets' }).waitFor();
      assert.equal(await page.getByText('No datasets yet').count(), 0);
    },
  },
  {
    name: 'an address without a token says where to find it',
    async run({ page, url }) {
      const bare = new URL(url);
      bare.search = '';
      await page.goto(bare.href);
      await page.getByRole('alert').filter({ hasText: 'This address has no token' }).waitFor();
    },
  },
  {
    name: 'the right token connects and every section opens (Label, Compare, Sync)',
    async run({ page, url }) {
      await page.goto(url);
      await page.getByText('No datasets yet').waitFor();
      assert.equal(await page.getByRole('alert').count(), 0);
      for (const [link, heading] of [['Label', 'Label'], ['Compare and sweeps', 'Compare'], ['Sync', 'Sync']]) {
        await page.getByRole('link', { name: link, exact: true }).click();
        await page.getByRole('heading', { name: heading, exact: true }).waitFor();
      }
      await page.keyboard.press('Alt+1');
      await page.getByRole('heading', { name: 'Runs and datasets' }).waitFor();
    },
  },
  {
    name: 'settings show the database and say where API keys come from without a keychain',
    async run({ page, url }) {
      await page.goto(url);
      await page.getByRole('link', { name: 'Settings' }).click();
      await page.getByRole('heading', { name: 'Settings' }).waitFor();
      await page.getByText('e2e.db').waitFor();
      await page.getByLabel('API keys').getByText('--api-key-env NAME').waitFor();
      assert.equal(await page.getByRole('form', { name: 'Store an API key' }).count(), 0);
    },
  },
];
