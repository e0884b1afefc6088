// while-desk stats <statistic> SOURCE... : every statistic of the registry, as a client of the typed API.
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from '../command';

const NOT_ROWS = /\.(mjs|cjs|js|ts|json|md|txt|db|sqlite|sqlite3)$/i;
/** Flags whose value is a file that is not rows. */
const NOT_ROWS_FLAGS = new Set(['--db', '--judge', '--rubric-file']);

function isFile(arg: string): boolean {
  try {
    return fs.statSync(arg).isFile();
  } catch {
    return false;
  }
}

/**
 * Starts a stats worker that reads the JSONL files among the arguments, before the engine, zod and the
 * registry load (below): the worker's start and its read overlap the CLI's own start. Without files, a source
 * named is a stored dataset: the worker starts ahead all the same, ready to read it.
 */
async function warmUp(argv: string[]): Promise<void> {
  if (argv[0] !== 'stats' || !argv[1] || argv[1].startsWith('-') || argv.includes('--help') || argv.includes('-h')) return;
  // What is not a flag nor a file flag's value: files, dataset ids and other flags' values (a wasted start at worst).
  const sources = argv.slice(2).filter((arg, i, all) => !arg.startsWith('-') && !NOT_ROWS_FLAGS.has(all[i - 1]));
  const files = sources.filter((arg) => !NOT_ROWS.test(arg) && isFile(arg));
  if (!sources.length) return;
  try {
    const engine = await import('../../engine/index');
    if (files.length) await engine.warmUpStatsFiles(files.map((file) => path.resolve(file)), argv[1]);
    else await engine.warmUpStatsDatasets();
  } catch {
    // no built worker script (run from source): the job starts its own worker
  }
}

await warmUp(process.argv.slice(2));
const { statsUsage, runStats } = await import('../stats-command');

export const statsCommand: Command = {
  get usage() {
    return statsUsage();
  },
  run: runStats,
};
