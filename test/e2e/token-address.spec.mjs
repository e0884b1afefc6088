// The token leaves the address bar once the page has read it, and a reload of that tab still connects.
import assert from 'node:assert/strict';

export default [
  {
    name: 'the token is taken out of the address and a reload still connects',
    async run({ page, url }) {
      await page.goto(`${url}#/settings`);
      await page.getByRole('heading', { name: 'Settings' }).waitFor();
      const shown = new URL(page.url());
      assert.equal(shown.searchParams.get('token'), null, `the address still shows the token: ${page.url()}`);
      assert.equal(shown.hash, '#/settings');
      await page.reload();
      await page.getByRole('link', { name: 'Runs' }).first().click();
      await page.getByText('No datasets yet').waitFor();
      assert.equal(await page.getByRole('alert').count(), 0);
    },
  },
];
