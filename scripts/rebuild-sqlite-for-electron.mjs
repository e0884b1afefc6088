// Builds a second copy of better-sqlite3 for Electron's ABI into native/electron/, leaving the Node copy
// (used by the CLI, `serve` and the tests) untouched. The app loads it through better-sqlite3's nativeBinding.
// Needs the network once (Electron's headers) and a C++ toolchain, like any native module.
import { cpSync, mkdirSync, rmSync, copyFileSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const electronVersion = JSON.parse(readFileSync(path.join(root, 'node_modules/electron/package.json'), 'utf8')).version;
const work = path.join(root, 'native', 'build', 'better-sqlite3');
rmSync(work, { recursive: true, force: true });
mkdirSync(path.dirname(work), { recursive: true });
cpSync(path.join(root, 'node_modules', 'better-sqlite3'), work, { recursive: true });
rmSync(path.join(work, 'build'), { recursive: true, force: true });

const gyp = spawnSync(
  'npx',
  ['--yes', 'node-gyp', 'rebuild', '--release', `--target=${electronVersion}`, '--runtime=electron', '--dist-url=https://electronjs.org/headers'],
  { cwd: work, stdio: 'inherit' },
);
if (gyp.status !== 0) {
  console.error('rebuild:electron failed: see the node-gyp output above');
  process.exit(1);
}
mkdirSync(path.join(root, 'native', 'electron'), { recursive: true });
copyFileSync(path.join(work, 'build', 'Release', 'better_sqlite3.node'), path.join(root, 'native', 'electron', 'better_sqlite3.node'));
console.log(`built better-sqlite3 for Electron ${electronVersion} into native/electron/better_sqlite3.node`);
