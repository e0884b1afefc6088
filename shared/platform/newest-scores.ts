// Newest score per version on one behaviour, read off the runs (platform-api.md §5.1 "Scores per version").
import type { RunRow, VersionScore } from './types';

/** The runs `tracked.runs()` keeps: archived rows are in the API's list and are left out. */
export function liveRuns(runs: readonly RunRow[]): RunRow[] {
  return runs.filter((r) => r && typeof r === 'object' && !r.archived);
}

export interface TimedScore {
  at: string;
  score: VersionScore;
}

/**
 * Per version, the eval on `behavior` with the greatest `createdAt` (eval's, else the run's, else ""),
 * compared as strings; the first one seen wins a tie. The map keeps the order versions were first seen.
 */
export function newestScores(runs: readonly RunRow[], behavior: string): Map<string, TimedScore> {
  const by = new Map<string, TimedScore>();
  for (const run of runs) {
    for (const e of run.evals ?? []) {
      if (!e || e.behavior !== behavior || e.score === null || e.score === undefined) continue;
      const at = String(e.createdAt || run.createdAt || '');
      const version = String(run.version ?? '');
      const prev = by.get(version);
      if (prev === undefined || at > prev.at) {
        by.set(version, { at, score: { v: version, score: e.score, ci: e.ci ?? null, n: e.n ?? null, run: run.id ?? null } });
      }
    }
  }
  return by;
}

/** The newest score per version on one behaviour, in first-seen order. */
export function scoresFor(runs: readonly RunRow[], behavior: string): VersionScore[] {
  return [...newestScores(runs, behavior).values()].map((t) => t.score);
}
