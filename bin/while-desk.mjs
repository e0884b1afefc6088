#!/usr/bin/env node
// Entry of the `while-desk` command: runs the engine bundle that `npm install` builds (scripts/build-engine.mjs).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const bundle = fileURLToPath(new URL('../out/engine/cli.mjs', import.meta.url));
if (!existsSync(bundle)) {
  process.stderr.write('while-desk: the engine is not built yet; run `npm run build:engine` in the While Desk folder\n');
  process.exit(1);
}
const { main } = await import(bundle);
await main();
