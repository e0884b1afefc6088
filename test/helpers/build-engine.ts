// Builds out/engine for the tests that run the bundle: one build at a time across test files (a lock folder).
// `npm test` builds first and sets WHILE_DESK_PREBUILT=1, so the tests then use that build as it is.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const repoRoot = path.resolve(__dirname, '../..');

export async function buildEngine(): Promise<void> {
  if (process.env.WHILE_DESK_PREBUILT === '1') return;
  const lock = path.join(repoRoot, 'out', '.test-build.lock');
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
