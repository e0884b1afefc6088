// select_for_sft (the SDK's score/optimize.py): rejection sampling. Rows whose reward reaches min_reward and that are
// not junk qualify; "top_per_prompt" keeps each prompt's best and spreads the picks over behavior signatures,
// "top_k_overall" the k best overall, and the random_* rules are the chance controls at the same counts. Works on
// per-row facts, so a dataset of 100k rows selects from a light first pass and reads only the rows it keeps.
import { sha256 as sha256Hex } from './digest';
import { PyRandom } from '../stats/random';
import { codePointCompare } from '../stats/task-order';
import { pyRound } from '../stats/py-format';
import { text } from './assistant-text';
import { evalSourcedWarning, isEvalSourced } from './eval-sourced';
import { TrainingValueError } from './export-settings';
import { LeakCollector, type LeakSummary } from './leak-drop';
import { collapsedLower } from './py-text';
import { behaviorSignature, isIncompleteJunk, scalarReward } from './row-gates';

type Obj = Record<string, unknown>;

export const SFT_SELECTIONS = ['top_per_prompt', 'random_per_prompt', 'top_k_overall', 'random_k_overall'] as const;
export type SftSelection = (typeof SFT_SELECTIONS)[number];
const REJECTION_SAMPLING_MIN_K = 10;

export interface SftOptions {
  target?: number;
  select?: string;
  k?: number | null;
  min_reward?: number;
  seed?: number;
}

/** What SFT selection reads of a row (index: its position in the input). */
export interface SftFacts {
  index: number;
  prompt: string;
  promptKey: string;
  value: number | null;
  junk: boolean;
  signature: string;
  evalSourced: boolean;
  /** The row's privileged-leak hit, or null (checked or not: `checkedLeak` says which). */
  leak: { field: string; needle: string } | null;
  checkedLeak: boolean;
  scenarioId: unknown;
  rolloutIndex: unknown;
  /** Whether junk and signature were read (false: the row's reward is below the min_reward it was read for). */
  detailed: boolean;
}

/** select_for_sft's min_reward when none is given. */
export const SFT_MIN_REWARD_DEFAULT = 1.0;

/**
 * A row's facts. With `minReward`, a row whose reward is missing or below it skips the junk check and the behavior
 * signature (the costliest facts: the conversation rebuilt, each tool result written out, a hash): the selector counts
 * such a row as not passing and reads neither. selectForSft refuses facts without them for a row that does pass.
 */
export function sftFacts(row: Obj, index: number, leak: { checked: boolean; hit: { field: string; needle: string } | null }, minReward?: number): SftFacts {
  const prompt = text(row.prompt);
  const value = scalarReward(row);
  const detailed = minReward === undefined || !(value === null || value < minReward); // selectForSft's pass test
  return {
    index,
    prompt,
    promptKey: collapsedLower(prompt),
    value,
    junk: detailed ? isIncompleteJunk(row) : false,
    signature: detailed ? behaviorSignature(row) : '',
    evalSourced: isEvalSourced(row),
    leak: leak.hit,
    checkedLeak: leak.checked,
    scenarioId: row.scenario_id ?? null,
    rolloutIndex: row.rollout_index ?? null,
    detailed,
  };
}

const stableKey = (t: string, salt: string): string => sha256Hex(`${salt}:${t}`);
const byKeys = (a: [number, string], b: [number, string]): number => (a[0] !== b[0] ? b[0] - a[0] : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0);

export interface SftSelection_ {
  selected: number[];
  report: Obj;
}

/** The indices selected, in training order, and the SDK's report. `all` is every input row's facts (non-objects left out). */
export function selectForSft(all: readonly SftFacts[], nInput: number, options: SftOptions = {}): SftSelection_ {
  const select = options.select ?? 'top_per_prompt';
  if (!(SFT_SELECTIONS as readonly string[]).includes(select)) throw new TrainingValueError(`select must be one of ${SFT_SELECTIONS.join(', ')}; got ${JSON.stringify(select)}`);
  const minReward = options.min_reward ?? SFT_MIN_REWARD_DEFAULT;
  const rng = new PyRandom(Math.trunc(options.seed ?? 0));
  const leaks = new LeakCollector();
  let scored: Array<[number, SftFacts]> = [];
  let nWrong = 0, nJunk = 0;
  for (const f of all) {
    if (leaks.drops(f)) continue;
    if (f.value === null || f.value < minReward) nWrong++;
    else if (!f.detailed) throw new Error(`select_for_sft: row ${f.index}'s facts were read for a higher min_reward than ${minReward}`);
    else if (f.junk) nJunk++;
    else scored.push([f.value, f]);
  }
  const poolRewards = scored.map(([v]) => v);
  const goal = Math.max(1, Math.trunc(options.target ?? 1000));
  const limit = options.k ? Math.max(1, Math.trunc(options.k)) : goal;
  if (select === 'top_k_overall' || select === 'random_k_overall') {
    if (select === 'top_k_overall') {
      const keyed = scored.map((p) => [p, [p[0], stableKey(p[1].prompt, p[1].signature)] as [number, string]] as const);
      keyed.sort((a, b) => byKeys(a[1], b[1]));
      scored = keyed.map(([p]) => p);
    } else rng.shuffle(scored);
    const picked = scored.slice(0, limit).map(([, f]) => f);
    return { selected: picked.map((f) => f.index), report: sftReport(all, nInput, leaks.summary(), scored.map(([, f]) => f), picked, nWrong, nJunk, goal, select, limit, minReward, poolRewards) };
  }
  const byPrompt = new Map<string, Array<[number, SftFacts]>>();
  for (const pair of scored) {
    const list = byPrompt.get(pair[1].promptKey);
    if (list) list.push(pair);
    else byPrompt.set(pair[1].promptKey, [pair]);
  }
  const eligible: SftFacts[] = [];
  for (const [key, candidates] of byPrompt) {
    if (select === 'random_per_prompt') {
      eligible.push(candidates[rng.randrange(candidates.length)][1]);
      continue;
    }
    const keyed = candidates.map((p) => [p, [p[0], stableKey(key, p[1].signature)] as [number, string]] as const);
    keyed.sort((a, b) => byKeys(a[1], b[1]));
    eligible.push(keyed[0][0][1]);
  }
  const buckets = new Map<string, SftFacts[]>();
  for (const f of eligible) {
    const b = buckets.get(f.signature);
    if (b) b.push(f);
    else buckets.set(f.signature, [f]);
  }
  for (const [sig, bucket] of buckets) {
    const keyed = bucket.map((f) => [f, stableKey(f.prompt, sig)] as const).sort((a, b) => codePointCompare(a[1], b[1]));
    buckets.set(sig, keyed.map(([f]) => f));
  }
  const order = [...buckets.keys()].sort((a, b) => buckets.get(b)!.length - buckets.get(a)!.length || codePointCompare(a, b));
  const selected: SftFacts[] = [];
  for (let round = 0; selected.length < goal; round++) {
    let took = false;
    for (const sig of order) {
      const bucket = buckets.get(sig)!;
      if (round < bucket.length) {
        selected.push(bucket[round]);
        took = true;
        if (selected.length >= goal) break;
      }
    }
    if (!took) break;
  }
  return { selected: selected.map((f) => f.index), report: sftReport(all, nInput, leaks.summary(), eligible, selected, nWrong, nJunk, goal, select, null, minReward, poolRewards) };
}

function meanReward(items: readonly SftFacts[]): number | null {
  const values = items.map((f) => f.value).filter((v): v is number => v !== null);
  return values.length ? pyRound(values.reduce((a, b) => a + b, 0) / values.length, 4) : null;
}

function sftReport(all: readonly SftFacts[], nInput: number, leaks: LeakSummary, eligible: readonly SftFacts[], selected: readonly SftFacts[], nWrong: number, nJunk: number, goal: number, select: string, k: number | null, minReward: number, poolRewards: number[]): Obj {
  const report: Obj = {
    n: nInput,
    privileged_leaks_dropped: leaks.n_dropped,
    privileged_leaks: leaks,
    n_eligible: eligible.length,
    n_selected: selected.length,
    n_not_pass: nWrong,
    n_junk: nJunk,
    unique_behaviors: new Set(eligible.map((f) => f.signature)).size,
    behaviors_covered: new Set(selected.map((f) => f.signature)).size,
    target: goal,
    selection: select,
    min_reward: minReward,
    reward_mean_eligible: meanReward(eligible),
    reward_mean_selected: meanReward(selected),
    eval_sourced: selected.filter((f) => f.evalSourced).length,
  };
  if (k !== null) report.k = k;
  if (report.eval_sourced) report.warning = evalSourcedWarning(report.eval_sourced as number, 'selected row(s)');
  const perPrompt = new Map<string, number>();
  for (const f of all) perPrompt.set(f.promptKey, (perPrompt.get(f.promptKey) ?? 0) + 1);
  const counts = [...perPrompt.values()].sort((a, b) => a - b);
  const maxK = counts.length ? counts[counts.length - 1] : 0;
  const meanK = counts.length ? pyRound(counts.reduce((a, b) => a + b, 0) / counts.length, 2) : 0;
  const medianK = counts.length ? counts[Math.trunc(counts.length / 2)] : 0;
  const singles = counts.filter((c) => c <= 1).length;
  report.completions_per_prompt_max = maxK;
  report.completions_per_prompt_mean = meanK;
  report.completions_per_prompt_median = medianK;
  report.prompts_with_one_completion = singles;
  const flat = poolRewards.length > 0 && Math.max(...poolRewards) === Math.min(...poolRewards);
  report.reward_spread_passing = poolRewards.length ? pyRound(Math.max(...poolRewards) - Math.min(...poolRewards), 4) : null;
  if (counts.length) report.selection_effective = medianK <= 1 || flat ? 'pass_filter' : select;
  const notes: string[] = [];
  if (counts.length && meanK < REJECTION_SAMPLING_MIN_K) {
    notes.push(
      `completions per prompt: mean ${meanK}, median ${medianK}, max ${maxK}; ${singles} of ${counts.length} prompts have one. Rejection-sampling selection wants ${REJECTION_SAMPLING_MIN_K} to 30 so the pick is not biased` +
        (medianK <= 1 && !flat ? ', and with one completion on the median prompt there is no pick at all, only a pass/fail filter' : '') +
        '. Sample more completions per prompt if you mean to choose among them rather than filter.',
    );
  }
  if (flat) {
    notes.push(`reward has no spread among the ${poolRewards.length} rows that cleared min_reward=${minReward}: every one scores ${pyRound(poolRewards[0], 4)}, so there is no ranking to select on; the chance control for the filter is random_k_overall with min_reward 0 at the same count.`);
  }
  if (notes.length) report.note = notes.join(' ');
  return report;
}
