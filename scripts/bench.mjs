// `npm run bench`: builds, then runs every test/bench/*.bench.mjs one after another and prints their figures.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const only = process.argv.slice(2);
const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
const benches = fs
  .readdirSync('test/bench')
  .filter((file) => file.endsWith('.bench.mjs'))
  .filter((file) => only.length === 0 || only.some((name) => file.includes(name)))
  .sort();
let failed = 0;
for (const file of benches) {
  console.log(`\n### ${file}`);
  const result = spawnSync(process.execPath, ['--expose-gc', path.join('test/bench', file)], { stdio: 'inherit' });
  if (result.status !== 0) failed++;
}
console.log(`\n${benches.length - failed} benchmarks ran, ${failed} failed`);
process.exit(failed ? 1 : 0);
