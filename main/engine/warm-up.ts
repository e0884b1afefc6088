// What a client may start before the engine opens, so the two overlap (the CLI does this): a statistics worker
// that reads the job's files ahead. Light on purpose: it loads no zod, no database, no statistics code.
import { prestartStatsWorker } from '../stats-workers/pool';

/**
 * Starts a stats worker and has it read `files` (absolute JSONL paths) for the job to come: into its cache, or
 * folded ahead when `command` (the `while-desk stats` subcommand) names a statistic with a fold.
 */
export function warmUpStatsFiles(files: string[], command?: string): void {
  prestartStatsWorker(files.map((path) => ({ type: 'preload', path, ...(command ? { command } : {}) })));
}
