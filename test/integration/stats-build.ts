// Builds out/engine once for the stats tests, one build at a time across test files (a lock folder).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const repoRoot = path.resolve(__dirname, '../..');

export async function buildEngine(): Promise<void> {
  const lock = path.join(repoRoot, 'out', '.stats-test-build.lock');
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      // a lock older than two minutes was left by a killed run
      const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Number.NaN);
      if (Number.isFinite(age) && age > 120_000) fs.rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`could not take ${lock}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    execFileSync(process.execPath, ['scripts/build-engine.mjs'], { cwd: repoRoot, stdio: 'pipe' });
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}
