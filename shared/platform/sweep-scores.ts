// Scores per sweep arm: the headline pass@1 and every marker on 3+ tasks (platform-api.md §6 "Scores per arm").
import { passAt } from '../stats/pass-at';
import { pyRound } from '../stats/py-format';
import { checkBehaviorName } from './behavior-wire';
import { markerSummary } from './marker-summary';

/** (points, half-width of the 95% interval, asks), as SweepReport.to_dict() lists it. */
export type Score = [number, number, number];

/** Under this a marker has no interval and is left off the card. */
export const MIN_MARKER_ASKS = 3;

const points = (mean: number, ci: [number, number] | null, asks: number): Score => {
  const [lo, hi] = ci ?? [mean, mean];
  return [pyRound(100 * mean, 1), pyRound((100 * (hi - lo)) / 2, 1), asks];
};

/** Headline first (keyed by the sweep's behaviour), then each marker by name; a marker becomes a behaviour, so its name is checked. */
export function armScores(rows: readonly unknown[], k: number, behavior: string): Record<string, Score> {
  const pa = passAt(rows, { k });
  const out: Record<string, Score> = { [behavior]: points(pa.pass_at_1 ?? 0, pa.ci95, pa.n_groups) };
  for (const [name, m] of markerSummary(rows)) {
    if (m.n_tasks < MIN_MARKER_ASKS || m.mean === null) continue;
    checkBehaviorName(name, 'judge marker');
    out[name] = points(m.mean, m.ci95, m.n_tasks);
  }
  return out;
}
