// `npm test`: lint, type check, build, unit + integration tests (vitest), browser e2e (Playwright + Chromium).
// Ends with one line for the whole suite: `N passed, N failed` (and skipped when any).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const totals = { passed: 0, failed: 0, skipped: 0 };
const failures = [];

function step(name, command, args, { count, env } = {}) {
  console.log(`\n=== ${name}: ${command} ${args.join(' ')}`);
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: count ? ['inherit', 'pipe', 'inherit'] : 'inherit', encoding: 'utf8', env: { ...process.env, ...env } });
  if (count) process.stdout.write(result.stdout ?? '');
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (count) {
    const counted = count(result);
    totals.passed += counted.passed;
    totals.failed += counted.failed;
    totals.skipped += counted.skipped ?? 0;
    if (counted.failed > 0 || result.status !== 0) failures.push(`${name} (exit ${result.status})`);
    if (result.status !== 0 && counted.failed === 0) totals.failed += 1;
  } else if (result.status === 0) {
    totals.passed += 1;
  } else {
    totals.failed += 1;
    failures.push(name);
  }
  console.log(`=== ${name}: ${result.status === 0 ? 'ok' : 'FAILED'} in ${seconds}s`);
  return result.status === 0;
}

function fromVitestJson(file) {
  return () => {
    if (!fs.existsSync(file)) return { passed: 0, failed: 1 };
    const report = JSON.parse(fs.readFileSync(file, 'utf8'));
    return { passed: report.numPassedTests, failed: report.numFailedTests, skipped: report.numPendingTests + report.numTodoTests };
  };
}

function fromClosingLine(result) {
  const match = /(\d+) passed, (\d+) failed(?:, (\d+) skipped)?\s*$/m.exec(result.stdout ?? '');
  return match ? { passed: Number(match[1]), failed: Number(match[2]), skipped: Number(match[3] ?? 0) } : { passed: 0, failed: 1 };
}

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
step('lint (layering)', npx, ['eslint', '.']);
step('type check', npx, ['tsc', '-p', 'tsconfig.json']);
const built = step('build', 'npm', ['run', 'build']);
const vitestReport = path.join(os.tmpdir(), `while-desk-vitest-${process.pid}.json`);
step('unit + integration', npx, ['vitest', 'run', '--config', 'vitest.config.ts', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestReport}`], {
  count: fromVitestJson(vitestReport),
  // The tests that run the bundle use the build above instead of building again.
  env: { WHILE_DESK_PREBUILT: built ? '1' : '0' },
});
if (built) step('browser e2e', process.execPath, ['test/e2e/run-e2e.mjs'], { count: fromClosingLine });
else {
  totals.failed += 1;
  failures.push('browser e2e (not run: the build failed)');
}

console.log('');
if (failures.length) console.log(`failed: ${failures.join('; ')}`);
console.log(`${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exit(totals.failed > 0 ? 1 : 0);
