// What select_for_rl reads of one row, computed once (a streamed selection keeps these, not the rows). A rollout cut
// at the token cap is marked first under truncated="keep" or "penalize", as the SDK marks it before its gates run.
// The gates read every row's RlFacts; the report's length and reward-correlation figures cover only the rows
// selected (a thousand of 100k), so their facts (RlDetails) are made for those rows alone, once the selection is known.
import { pyFloat, withDumpsKept } from '../schema/py-json';
import { isObject, pyStr, pyTruthy, taskKey } from '../stats/keys';
import { text } from './assistant-text';
import { isEvalSourced } from './eval-sourced';
import { sha256 } from './digest';
import { correlationFacts, isTruncated, lengthFacts, type CorrelationFacts, type LengthFacts } from './hygiene';
import { leakFact } from './privileged';
import { collapsedLower } from './py-text';
import { traceFault } from './reply-checks';
import { behaviorSignature, binaryLabel, hasTrainableContent, isDoNothing, isIncompleteJunk, isVerifiedZero } from './row-gates';

type Obj = Record<string, unknown>;

export const TRUNCATED_POLICIES = ['drop', 'keep', 'penalize'] as const;
export type TruncatedPolicy = (typeof TRUNCATED_POLICIES)[number];

/** The yes-or-no facts of a row, as bits of RlFacts.flags: 100k rows' facts are held at once, a field each cost 6 MB. */
export const RL_FLAG = {
  junk: 1,
  doNothing: 2,
  verifiedZero: 4,
  trainable: 8,
  truncated: 16,
  overlong: 32,
  /** Marked overlong (or penalized) here, being truncated under keep / penalize. */
  marked: 64,
  evalSourced: 128,
} as const;

export interface RlFacts {
  index: number;
  task: string;
  prompt: string;
  label: 0 | 1 | null;
  /** RL_FLAG bits, read with rlIs. */
  flags: number;
  /** Equal for two rows exactly when their prompt, behavior signature and collapsed reply are (a digest of the three). */
  dedupeKey: string;
  fault: string;
  stampedRate: { rate: number; n: number | null } | null;
  leak: { field: string; needle: string } | null;
  checkedLeak: boolean;
  scenarioId: unknown;
  rolloutIndex: unknown;
}

/** Whether the facts carry an RL_FLAG bit. */
export const rlIs = (facts: RlFacts, bit: number): boolean => (facts.flags & bit) !== 0;

/** What the selection's report reads of a selected row: its reply length, the reward-correlation features, its policy version. */
export interface RlDetails {
  length: LengthFacts;
  correlation: CorrelationFacts | null;
  version: string | null;
}

/** _stamped_rate: a pass rate carried at the top level or under calibration, with its n when it says one. */
function stampedRate(row: Obj): { rate: number; n: number | null } | null {
  const cal = row.calibration;
  for (const src of [row, isObject(cal) ? cal : {}] as Obj[]) {
    const rate = src.pass_rate;
    if (rate === null || rate === undefined || typeof rate === 'boolean') continue;
    const value = typeof rate === 'number' ? rate : rate instanceof Number ? rate.valueOf() : typeof rate === 'string' && rate.trim() !== '' ? Number(rate) : NaN;
    if (!(value >= 0 && value <= 1)) continue;
    const n = src.n instanceof Number ? src.n.valueOf() : src.n;
    return { rate: value, n: typeof n === 'number' && n > 0 ? Math.trunc(n) : null };
  }
  return null;
}

/** The row as the selection sees it: a truncated rollout marked overlong (and, under "penalize", failed). */
export function rlPrepared(row: Obj, policy: TruncatedPolicy): Obj {
  if (policy === 'drop' || !isTruncated(row)) return row;
  const marked: Obj = { ...row, overlong: true, markers: { ...(isObject(row.markers) ? row.markers : {}), finished: pyFloat(0) } };
  if (policy === 'penalize') {
    // The SDK attaches an overlong_penalty judgment (reward 0) and keeps the judged score; judge fields follow §1.5.
    marked.reward_before_penalty = row.reward ?? null;
    marked.reward = 0;
    marked.reason = "cut at the token cap; penalized (truncated='penalize')";
    marked.judge_name = 'overlong_penalty';
    marked.judge_meta = { reward_before_penalty: row.reward ?? null, judge_before: row.judge_name ?? null, reason_before: row.reason ?? null };
  }
  return marked;
}

/** A row's facts; each tool result is written out as JSON once, however many of the checks read it (none changes the row). */
export function rlFacts(source: Obj, index: number, policy: TruncatedPolicy, hasTools: boolean): RlFacts {
  return withDumpsKept(() => factsOf(source, index, policy, hasTools));
}

function factsOf(source: Obj, index: number, policy: TruncatedPolicy, hasTools: boolean): RlFacts {
  const row = rlPrepared(source, policy);
  const leak = leakFact(source);
  const flag = (set: boolean, bit: number): number => (set ? bit : 0);
  return {
    index,
    task: taskKey(row),
    prompt: text(row.prompt),
    label: binaryLabel(row),
    flags:
      flag(isIncompleteJunk(row), RL_FLAG.junk) |
      flag(isDoNothing(row, hasTools), RL_FLAG.doNothing) |
      flag(isVerifiedZero(row), RL_FLAG.verifiedZero) |
      flag(hasTrainableContent(row), RL_FLAG.trainable) |
      flag(isTruncated(row), RL_FLAG.truncated) |
      flag(pyTruthy(row.overlong), RL_FLAG.overlong) |
      flag(row !== source, RL_FLAG.marked) |
      flag(isEvalSourced(row), RL_FLAG.evalSourced),
    // The duplicate key (prompt, behavior, reply) as a digest: 100k rows' keys in full held 60 MB. Of its JSON text,
    // so that no two keys share one (UTF-8 would write every lone surrogate as the same U+FFFD); 128 of its bits.
    dedupeKey: sha256(JSON.stringify([text(row.prompt), behaviorSignature(row), collapsedLower(text(row.final_text))])).slice(0, 32),
    fault: traceFault(row),
    stampedRate: stampedRate(row),
    leak: leak.hit,
    checkedLeak: leak.checked,
    scenarioId: row.scenario_id ?? null,
    rolloutIndex: row.rollout_index ?? null,
  };
}

/** policy_version, else model_version (Python's `or`), as str; null when neither is set. */
function policyVersion(row: Obj): string | null {
  if (pyTruthy(row.policy_version)) return pyStr(row.policy_version);
  return pyTruthy(row.model_version) ? pyStr(row.model_version) : null;
}

/** A selected row's details, of the row as rlFacts saw it (rlPrepared under the same policy). */
export function rlDetails(source: Obj, policy: TruncatedPolicy): RlDetails {
  const row = rlPrepared(source, policy);
  return withDumpsKept(() => ({ length: lengthFacts(row), correlation: correlationFacts(row), version: policyVersion(row) }));
}
