// The "beats" rule and the runs that beat the served version per behaviour (platform-api.md §5.1 step 6).
import { scoresFor } from './newest-scores';
import type { BehaviorWire, RunRow, VersionScore } from './types';

/** Both intervals present, and the unrounded gap clears sqrt(ci_c^2 + ci_s^2) and the floor (when one is set). */
export function beats(candidate: VersionScore, served: VersionScore, floor: number | null | undefined): boolean {
  if (candidate.ci === null || candidate.ci === undefined || served.ci === null || served.ci === undefined) return false;
  const d = candidate.score - served.score;
  return d > Math.sqrt(candidate.ci ** 2 + served.ci ** 2) && (floor === null || floor === undefined || d > floor);
}

/** Per declared behaviour, the runs (ids, or versions for a row with no id) whose newest score beats the served one. */
export function winners(behaviors: readonly BehaviorWire[], runs: readonly RunRow[], serving: string | null): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  if (!serving) return out;
  for (const b of behaviors) {
    const scores = scoresFor(runs, b.name);
    const served = scores.find((v) => v.v === serving);
    if (!served) continue;
    for (const v of scores) {
      if (v.v === serving || !beats(v, served, b.noiseFloor)) continue;
      const set = out.get(b.name) ?? new Set<string>();
      set.add(v.run || v.v);
      out.set(b.name, set);
    }
  }
  return out;
}
