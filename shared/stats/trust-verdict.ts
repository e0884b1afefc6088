// The live trust panel's plain words, from a judge_trust report (pure, unit-tested under Node):
// - labelsToFloor: how many more labels would lift the agreement interval's lower bound (Wilson, as judge_trust
//   computes it) over the floor if the current agreement holds: the smallest m >= n with
//   wilson(round(point * m), m).low >= floor, minus n. 0 when it is already over; null when the point agreement
//   is not above the floor (no number of labels lifts it) or nothing is labeled.
// - verdict: trusted / not measured / inconclusive / fails, naming the floor; inconclusive also when judge_trust's
//   skipped share (fractional rewards on gold rows) is over its floor, as the SDK prints INCONCLUSIVE.
import { wilsonInterval } from './intervals';
import { pyRound } from './py-format';

type Obj = Record<string, unknown>;

const SEARCH_LIMIT = 100_000;

export function labelsToFloor(point: number | null, n: number, floor: number): number | null {
  if (point === null || n <= 0) return null;
  const now = wilsonInterval(pyRound(point * n), n);
  if (now && now[0] >= floor) return 0;
  if (point <= floor) return null;
  for (let m = n + 1; m < SEARCH_LIMIT; m++) {
    const interval = wilsonInterval(pyRound(point * m), m);
    if (interval && interval[0] >= floor) return m - n;
  }
  return null;
}

export type VerdictWord = 'trusted' | 'not measured' | 'inconclusive' | 'fails';

export interface TrustView {
  word: VerdictWord;
  line: string;
  n: number;
  agreement: number | null;
  ci95: [number, number] | null;
  kappa: number | null;
  nGold: number;
  floor: number;
  kappaFloor: number;
  more: number | null;
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

export function trustView(report: Obj): TrustView {
  const agreement = (report.agreement ?? {}) as Obj;
  const floors = (report.floors ?? {}) as Obj;
  const floor = typeof floors.min_agreement === 'number' ? floors.min_agreement : 0.8;
  const kappaFloor = typeof floors.min_kappa === 'number' ? floors.min_kappa : 0.6;
  const n = typeof agreement.n === 'number' ? agreement.n : 0;
  const point = typeof agreement.agreement === 'number' ? agreement.agreement : null;
  const ci95 = Array.isArray(agreement.ci95) ? (agreement.ci95 as [number, number]) : null;
  const kappa = typeof agreement.kappa === 'number' ? agreement.kappa : null;
  const skipped = (report.skipped ?? {}) as Obj;
  const nGold = typeof skipped.n_gold === 'number' ? skipped.n_gold : 0;
  const gold = typeof report.gold_kind === 'string' ? report.gold_kind : null;
  const trustedGold = gold === 'human' || gold === 'program';
  const more = labelsToFloor(point, n, floor);
  const base = { n, agreement: point, ci95, kappa, nGold, floor, kappaFloor, more };
  // judge_trust's INCONCLUSIVE: the judge gave fractional rewards (a rubric of principles) to more of the gold rows
  // than max_skipped_share, so the rows left are the ones it was sure about and no verdict stands on them.
  if (skipped.over_floor === true) {
    const share = typeof skipped.share === 'number' ? skipped.share : 0;
    const cap = typeof skipped.floor === 'number' ? skipped.floor : 0.1;
    return { ...base, word: 'inconclusive', line: `Inconclusive: ${String(skipped.fractional)} of ${nGold} labeled rows have a fractional reward (${pct(share)}, over the ${pct(cap)} max_skipped_share), so the agreement on the ${String(skipped.n_used)} left reads high by construction. Give the rubric's criteria kind "hard" for a 0/1 verdict.` };
  }
  if (n === 0) return { ...base, word: 'not measured', line: 'Not measured: no row has both a judge verdict and a gold label yet.' };
  if (!trustedGold) return { ...base, word: 'not measured', line: `Not measured: the gold is ${gold ?? 'unknown'}, not a person's or a program's.` };
  if (report.ok === true) return { ...base, word: 'trusted', line: `Trusted: agreement ${pct(point ?? 0)}, its lower bound ${pct(ci95?.[0] ?? 0)} is over the ${pct(floor)} floor and kappa ${kappa} over ${kappaFloor}.` };
  if (ci95 && ci95[1] < floor) return { ...base, word: 'fails', line: `Fails: even the upper bound of agreement (${pct(ci95[1])}) is under the ${pct(floor)} floor. Change the judge.` };
  if (ci95 && ci95[0] >= floor && kappa !== null && kappa < kappaFloor) return { ...base, word: 'fails', line: `Fails: agreement clears the ${pct(floor)} floor but kappa ${kappa} is under ${kappaFloor}: the judge barely beats chance.` };
  if (ci95 && ci95[0] >= floor) return { ...base, word: 'fails', line: 'Fails: the agreement clears the floor, but judge_trust flags the judge (see the warnings).' };
  const tail = more === null ? `while agreement stays at ${pct(point ?? 0)} no number of labels lifts it over ${pct(floor)}` : `label about ${more} more if the agreement holds`;
  return { ...base, word: 'inconclusive', line: `Inconclusive: the agreement's lower bound ${pct(ci95?.[0] ?? 0)} is under the ${pct(floor)} floor; ${tail}.` };
}
