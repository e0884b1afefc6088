// Finds files the build produced (renderer, worker scripts), from source (tests) or from the bundle.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export function packageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('could not find the While Desk package folder');
    dir = parent;
  }
  return dir;
}

/** A script of out/engine (worker, child process), e.g. builtScript('stats-worker.cjs'). */
export function builtScript(name: string): string {
  const file = builtScriptIfPresent(name);
  if (file === null) throw new Error(`${path.join(packageRoot(), 'out', 'engine', name)} is missing: run \`npm run build:engine\``);
  return file;
}

/** A script of out/engine, or null when it is not built (a caller that can do the work in its own thread instead). */
export function builtScriptIfPresent(name: string): string | null {
  const file = path.join(packageRoot(), 'out', 'engine', name);
  return fs.existsSync(file) ? file : null;
}
