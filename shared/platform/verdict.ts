// The verdict with its candidate resolved per behaviour (platform-api.md §5.1), as tracked.verdict() computes it.
import { StatsValueError } from '../stats/errors';
import { pyRound } from '../stats/py-format';
import { codePointCompare } from '../stats/task-order';
import { beats, winners } from './beats';
import { liveRuns, newestScores, scoresFor } from './newest-scores';
import { verdictLine } from './verdict-line';
import { applyDeclared } from './declared';
import type { BehaviorWire, DashboardWire, RunRow, VerdictWire, VersionScore } from './types';

/** The resolved verdict, with the SDK's snake_case field names. */
export interface Verdict {
  candidate: string | null;
  serving: string | null;
  delta: number | null;
  excludes_zero: boolean | null;
  regressions: number;
  behavior: string | null;
  noise_floor: number | null;
  n: number | null;
  judge_agreement: number | null;
  judge_human_n: number | null;
  reward_is_judge: boolean | null;
  graded_by: 'program' | 'judge' | null;
  contamination: number | null;
  replicated: string[];
}

export interface VerdictResult extends Verdict {
  /** The platform's rendered one-line verdict, character for character. */
  line: string;
}

export interface VerdictOptions {
  /** The behaviour the dashboard was fetched for (informational: the dashboard's behaviour block decides). */
  behavior?: string | null;
  /** Name the candidate instead of resolving it; it must have a score on the behaviour. */
  version?: string | null;
  /** Behaviours this client declared itself: their `gradedBy` fills one the server's rows lack (step 7). */
  declared?: readonly BehaviorWire[];
}

const orNull = <T>(x: T | null | undefined): T | null => (x === undefined ? null : x);

/** The server's verdict block, with what it rests on filled from the behaviour block when null (step 7). */
function serverVerdict(dash: DashboardWire): Verdict {
  const s: VerdictWire = dash.verdict ?? {};
  const beh = dash.behavior ?? null;
  return {
    candidate: orNull(s.candidate),
    serving: orNull(s.serving),
    delta: orNull(s.delta),
    excludes_zero: orNull(s.excludesZero),
    regressions: s.regressions ?? 0,
    behavior: s.behavior ?? beh?.name ?? null,
    noise_floor: s.noiseFloor ?? beh?.noiseFloor ?? null,
    n: s.n ?? beh?.n ?? null,
    judge_agreement: s.judgeAgreement ?? beh?.judge?.agreement ?? null,
    judge_human_n: s.judgeHumanN ?? beh?.judge?.humanN ?? null,
    reward_is_judge: s.rewardIsJudge ?? beh?.rewardIsJudge ?? null,
    graded_by: s.gradedBy ?? beh?.gradedBy ?? null,
    contamination: s.contamination ?? beh?.contamination ?? null,
    replicated: [...(s.replicated ?? [])],
  };
}

/** The newest-posted version other than the served one; dashboard order breaks ties toward later entries. */
function newestCandidate(versions: readonly VersionScore[], runs: readonly RunRow[], behavior: string, serving: string | null): VersionScore | null {
  const when = newestScores(runs, behavior);
  let best: { at: string; i: number; v: VersionScore } | null = null;
  versions.forEach((v, i) => {
    if (v.v === serving) return;
    const at = when.get(v.v)?.at ?? '';
    if (best === null || at > best.at || (at === best.at && i > best.i)) best = { at, i, v };
  });
  return best === null ? null : (best as { v: VersionScore }).v;
}

/** Other behaviours where both versions have newest scores and the candidate's is lower. */
function countRegressions(dash: DashboardWire, runs: readonly RunRow[], name: string, cand: string, serving: string, serverCandidate: string | null): number {
  const deltas = dash.deltas ?? [];
  if (serverCandidate === cand && deltas.length) return deltas.filter((d) => d && typeof d.delta === 'number' && d.delta < 0).length;
  let count = 0;
  for (const other of dash.behaviors ?? []) {
    if (other === name) continue;
    const scores = new Map(scoresFor(runs, other).map((v) => [v.v, v.score]));
    const c = scores.get(cand);
    const s = scores.get(serving);
    if (c !== undefined && s !== undefined && c < s) count++;
  }
  return count;
}

/** Resolves the verdict on the dashboard's behaviour from the dashboard, the declared behaviours and the runs. */
export function resolveVerdict(given: DashboardWire, behaviorList: readonly BehaviorWire[], allRuns: readonly RunRow[], options: VerdictOptions = {}): Verdict {
  const { dash, behaviors } = applyDeclared(given, behaviorList, options.declared);
  const runs = liveRuns(allRuns);
  const server = serverVerdict(dash);
  const beh = dash.behavior ?? null;
  const versions = dash.versions ?? [];
  if (!beh || !versions.length) return server;
  const name = beh.name;
  const serving = server.serving || dash.agent?.serving || null;
  let cand: VersionScore | null;
  if (options.version !== undefined && options.version !== null) {
    cand = versions.find((v) => v.v === options.version) ?? null;
    if (!cand) {
      throw new StatsValueError(`'${options.version}' has no score on '${name}'; scored there: ${versions.map((v) => v.v).join(', ')}.`);
    }
  } else {
    cand = newestCandidate(versions, runs, name, serving);
  }
  const out: Verdict = { ...server, candidate: cand ? cand.v : null, serving, replicated: [], regressions: 0 };
  const served = serving ? (versions.find((v) => v.v === serving) ?? null) : null;
  if (!cand || !served || cand.v === serving) {
    out.delta = !cand || !served ? null : 0;
    out.excludes_zero = null;
    return out;
  }
  const delta = pyRound(cand.score - served.score, 1);
  out.delta = delta;
  const cis = [cand.ci, served.ci];
  out.excludes_zero = cis.some((c) => c === null || c === undefined) ? null : Math.abs(delta) > Math.sqrt((cand.ci as number) ** 2 + (served.ci as number) ** 2);
  out.regressions = countRegressions(dash, runs, name, cand.v, serving as string, server.candidate);
  if (beats(cand, served, beh.noiseFloor)) {
    const mine = cand.run || cand.v;
    const wins = winners(behaviors, runs, serving);
    out.replicated = [...wins.entries()]
      .filter(([b, ids]) => b !== name && [...ids].some((r) => r !== mine))
      .map(([b]) => b)
      .sort(codePointCompare);
  }
  return out;
}

/** `tracked.verdict(behavior, version=)`: the resolved verdict plus its one-line rendering. */
export function verdict(dash: DashboardWire, behaviors: readonly BehaviorWire[], runs: readonly RunRow[], options: VerdictOptions = {}): VerdictResult {
  const resolved = resolveVerdict(dash, behaviors, runs, options);
  return { ...resolved, line: verdictLine(resolved) };
}
