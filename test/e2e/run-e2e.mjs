// Runs every test/e2e/*.spec.mjs in Debian's Chromium against a fresh `while-desk serve` per test.
// Builds nothing: run `npm run build` first. Ends with `N passed, N failed`; exits non-zero on any failure.
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { checkPrerequisites, launchBrowser, startServe, tempDir } from './harness.mjs';

const TEST_TIMEOUT_MS = 60_000;
const here = path.dirname(new URL(import.meta.url).pathname);
const only = process.argv.slice(2);

function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms / 1000} s`)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function runOne(browser, test) {
  const dir = tempDir();
  const serve = startServe(path.join(dir, 'e2e.db'));
  const page = await browser.context.newPage();
  page.setDefaultTimeout(10_000);
  const problems = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  try {
    const url = await serve.url;
    await withTimeout(test.run({ page, url, dir, problems }), TEST_TIMEOUT_MS, test.name);
    const unexpected = test.allowConsoleErrors ? [] : problems;
    if (unexpected.length) throw new Error(unexpected.join('\n'));
  } catch (error) {
    const shot = path.join(dir, 'failure.png');
    await page.screenshot({ path: shot }).catch(() => undefined);
    error.message += `\n    (screenshot: ${shot}; serve log:\n${serve.log().trim().replace(/^/gm, '      ')})`;
    throw error;
  } finally {
    await page.close().catch(() => undefined);
    await serve.stop();
  }
  rmSync(dir, { recursive: true, force: true });
}

async function main() {
  const missing = checkPrerequisites();
  if (missing.length) {
    console.error(`e2e: cannot run; missing ${missing.join(', ')}`);
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
  const specs = readdirSync(here).filter((name) => name.endsWith('.spec.mjs')).sort();
  const browser = await launchBrowser();
  let passed = 0;
  let failed = 0;
  try {
    for (const spec of specs) {
      const { default: tests } = await import(pathToFileURL(path.join(here, spec)).href);
      for (const test of tests) {
        const name = `${spec.replace('.spec.mjs', '')}: ${test.name}`;
        if (only.length && !only.some((word) => name.includes(word))) continue;
        const started = Date.now();
        try {
          await runOne(browser, test);
          passed++;
          console.log(`ok   ${name} (${Date.now() - started} ms)`);
        } catch (error) {
          failed++;
          console.log(`FAIL ${name} (${Date.now() - started} ms)\n    ${error instanceof Error ? error.message : error}`);
        }
      }
    }
  } finally {
    await browser.close();
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed > 0 ? 1 : 0);
}

await main();
