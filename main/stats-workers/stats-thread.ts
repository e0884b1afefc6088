// How every statistics thread starts: a pool's worker, one the CLI starts ahead of the engine, a helper that folds a
// part of a file or dataset, a spare helper.
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { builtScript } from '../engine/package-root';

/**
 * A statistics thread's young generation, in MB: its new space then stays at 4 MB, where by default V8 grows it to
 * 16 MB or more. A fold parses rows that die at once: a small young generation is scavenged more often but keeps
 * reusing the same pages, where a growing one takes fresh ones, and each page's first touch is a page fault (a slow
 * one on a virtual machine). Measured on 2 cores, alternated runs, medians: `stats pass-at FILE` on 100k rows 670 and
 * 674 ms against 717 and 719 (3 MB gave the same as 6); `stats delta` on two files of 100k rows 1740 against 2276 ms
 * (with the block reading of file-rows.ts); `stats pass-at DATASET` on 100k rows 869 against 890 ms; `compare` of two
 * 25,000-task runs from their kept folds 966 against 1036 ms.
 */
const YOUNG_GENERATION_MB = 6;

/** Starts the stats worker script (or `script`, a test's) as a statistics thread. */
export function startStatsThread(options: Pick<WorkerOptions, 'workerData' | 'transferList'>, script?: string): Worker {
  return new Worker(script ?? builtScript('stats-worker.cjs'), { ...options, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
}
