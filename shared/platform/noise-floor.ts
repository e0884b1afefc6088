// The eval's re-run floor and the PUT that records it (platform-api.md §5.4; tracked.noise_floor).
import { StatsValueError } from '../stats/errors';
import { pyFixed, pyRound } from '../stats/py-format';
import { tQuantile } from '../stats/t-dist';
import { evalVariance } from '../stats/variance';
import { behaviorBody, checkBehaviorName } from './behavior-wire';
import type { BehaviorWire } from './types';

export const MIN_RERUNS = 3;
export const POINTS_PER_UNIT = 100;

export interface NoiseFloorOptions {
  /** The tracked agent's id: the PUT goes to /agents/<agent>/behaviors/<name>. */
  agent: string;
  /** "pass_at_1" (default) or "marker:<name>". */
  metric?: string;
  /** What `GET /agents/{id}/behaviors` answers: the record the floor is merged into. */
  behaviors?: readonly BehaviorWire[];
}

export interface NoiseFloorReport {
  behavior: string;
  /** Points: round(round(t x run_std x sqrt(2), 4) x 100, 2). */
  noise_floor: number;
  run_std: number;
  runs: number;
  t: number;
  means: Record<string, number | null>;
  rule: string;
  notes: string[];
}

export interface NoiseFloorResult {
  report: NoiseFloorReport;
  put: { path: string; body: Record<string, unknown> };
}

/** The floor from two or more re-runs of one version (each a list of rows), and the behaviour PUT it makes. */
export function noiseFloor(behavior: string | BehaviorWire, reruns: readonly unknown[][], options: NoiseFloorOptions): NoiseFloorResult {
  const name = checkBehaviorName(typeof behavior === 'string' ? behavior : behavior?.name);
  const metric = options.metric ?? 'pass_at_1';
  if (reruns.length < 2) {
    throw new StatsValueError(
      `noise_floor(${name}, run_1, run_2, ...) needs two or more re-runs of the same eval on the same version (got ${reruns.length}); ` +
        'one run is one draw, not a spread. Three re-runs are the fewest worth reading.',
    );
  }
  const report = evalVariance(reruns, { metric });
  const runs = report.n_runs;
  if (report.run_std === null || report.noise_band === null || runs < 2) {
    throw new StatsValueError(`noise_floor: ${runs} of ${reruns.length} re-runs carried 0/1 scored rows for ${metric}; two or more are needed for a run_std`);
  }
  const df = report.noise_band_df as number;
  const t = tQuantile(df);
  const floor = pyRound(report.noise_band * POINTS_PER_UNIT, 2);
  const existing = typeof behavior === 'string' ? options.behaviors?.find((b) => b && b.name === name) : behavior;
  return {
    report: {
      behavior: name,
      noise_floor: floor,
      run_std: report.run_std,
      runs,
      t: pyRound(t, 2),
      means: report.means,
      rule: `t(df=${df})=${pyFixed(t, 2)} x run_std x sqrt(2) x ${POINTS_PER_UNIT} points`,
      notes: report.notes,
    },
    put: { path: `/agents/${options.agent}/behaviors/${name}`, body: existing ? behaviorBody({ ...existing, noiseFloor: floor }) : { noiseFloor: floor } },
  };
}
