// Before `npm start`: make sure the Electron binary is there (npm ci skips its download, see allowScripts)
// and that better-sqlite3 has a copy built for Electron's ABI in native/electron/.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);

function electronBinaryPresent() {
  try {
    return existsSync(require('electron'));
  } catch {
    return false;
  }
}

if (!electronBinaryPresent()) {
  console.log('downloading the Electron binary (once)...');
  const install = spawnSync(process.execPath, [path.join(root, 'node_modules', 'electron', 'install.js')], { stdio: 'inherit' });
  if (install.status !== 0 || !electronBinaryPresent()) {
    console.error('could not download Electron; `while-desk serve` runs the same app in a browser without it');
    process.exit(1);
  }
}

if (!existsSync(path.join(root, 'native', 'electron', 'better_sqlite3.node'))) {
  const rebuild = spawnSync(process.execPath, [path.join(root, 'scripts', 'rebuild-sqlite-for-electron.mjs')], { stdio: 'inherit' });
  if (rebuild.status !== 0) process.exit(rebuild.status ?? 1);
}
