#!/usr/bin/env node
// `npm run make-tiny-model -- OUT.gguf [--seed N]`: writes the tiny random-weight llama GGUF used by tests and benches.
import { writeTinyGguf } from '../test/fixtures/make-tiny-gguf.mjs';

const usage = 'usage: npm run make-tiny-model -- OUT.gguf [--seed N]';
const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(usage);
  process.exit(0);
}
const seedAt = args.indexOf('--seed');
const seedText = seedAt >= 0 ? args[seedAt + 1] : undefined;
const positional = args.filter((arg, i) => !arg.startsWith('--') && (seedAt < 0 || i !== seedAt + 1));
if (positional.length !== 1) {
  console.error(usage);
  process.exit(2);
}
const seed = seedText === undefined ? undefined : Number(seedText);
if (seedAt >= 0 && !Number.isInteger(seed)) {
  console.error(`--seed needs a whole number, got "${seedText ?? ''}"`);
  process.exit(2);
}
const written = writeTinyGguf(positional[0], seed === undefined ? {} : { seed });
console.log(`wrote ${written.path} (${written.bytes} bytes)`);
