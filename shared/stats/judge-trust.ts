// judge_trust: can the judge be trusted, against gold labels and under attack (stats-semantics §13.1).
import { isObject, pyStr, pyTruthy, taskKey, type Row } from './keys';
import { pyFloat, trustLabel } from './readers';
import { StatsValueError } from './errors';
import { requireAtLeast, requireUnit } from './ranges';
import { wilsonInterval, type Interval } from './intervals';
import { pyRound } from './py-format';
import { taskHalf } from './task-half';
import { isTrustedGold, judgeAgreement, type AgreementReport } from './agreement';
import { lengthSensitivity, LENGTH_GAP_FLAG, type LengthSensitivity } from './length-sensitivity';
import { perturbation, type PerturbationReport } from './perturbation';
import { FLIP_FLAG, JUDGE_CHECK_SAMPLE, judgeProbes, type ProbesReport } from './judge-probes';
import type { AnyJudge } from './judge-fn';
import {
  addUnmeasuredLine, floorLines, foreignRewardNote, halvesLine, isFlagged, lengthLine, perturbationLines, skippedLine,
} from './judge-trust-warnings';

export const MIN_AGREEMENT = 0.8;
export const MIN_KAPPA = 0.6;
export const MAX_SKIPPED_SHARE = 0.1;
/** MESSAGE_EXAMPLES = 5: distinct fractions listed in `skipped.examples`. */
const MESSAGE_EXAMPLES = 5;

export type AgreementWithCi = AgreementReport & { ci95: Interval | null };

export interface SkippedReport {
  n_gold: number;
  n_used: number;
  fractional: number;
  unscored: number;
  share: number;
  floor: number;
  over_floor: boolean;
  examples: number[];
}

export interface JudgeTrustOptions {
  judge?: AnyJudge | null;
  gold?: string;
  sample?: number;
  seed?: number;
  concurrency?: number;
  probes?: 'all' | readonly string[] | null;
  rubric?: string | null;
  min_agreement?: number;
  min_kappa?: number;
  allow_model_gold?: boolean;
  length_gap_flag?: number;
  flip_flag?: number;
  max_skipped_share?: number;
  judge_name?: string | null;
}

export interface JudgeTrustReport {
  ok: boolean;
  n_rows: number;
  n_labeled: number;
  gold_kind: string | null;
  gold_degenerate: boolean;
  floors: { min_agreement: number; min_kappa: number; max_skipped_share: number };
  skipped: SkippedReport;
  agreement: AgreementWithCi;
  held_out_halves: { a: AgreementWithCi; b: AgreementWithCi };
  length_sensitivity: LengthSensitivity;
  perturbation: PerturbationReport | null;
  probes: ProbesReport | null;
  exploitable_by: string[];
  disagreements: Array<{ task: string; gold: number; judge: number; reason: string; final_text: string }>;
  warnings: string[];
}

/** A reward that parses to a float other than 0 or 1 (booleans and null are not fractions). */
function fraction(row: Row): number | null {
  const v = row.reward;
  if (v === null || v === undefined || typeof v === 'boolean') return null;
  const f = pyFloat(v);
  return f === null || f === 0 || f === 1 ? null : f;
}

function skippedReport(goldRows: readonly Row[], nUsed: number, maxSkippedShare: number): SkippedReport {
  const fractions: number[] = [];
  for (const r of goldRows) { const f = fraction(r); if (f !== null) fractions.push(f); }
  const nGold = goldRows.length;
  const share = nGold ? pyRound(fractions.length / nGold, 4) : 0.0;
  const distinct = [...new Set(fractions.map((f) => pyRound(f, 4)))].sort((a, b) => a - b);
  return {
    n_gold: nGold,
    n_used: nUsed,
    fractional: fractions.length,
    unscored: nGold - nUsed - fractions.length,
    share,
    floor: Number(maxSkippedShare),
    over_floor: fractions.length > 0 && share > Number(maxSkippedShare),
    examples: distinct.slice(0, MESSAGE_EXAMPLES),
  };
}

function withCi(rows: readonly unknown[], gold: string, allowModelGold: boolean): AgreementWithCi {
  const out = judgeAgreement(rows, gold, { allow_model_gold: allowModelGold });
  return { ...out, ci95: wilsonInterval(out.confusion.tp + out.confusion.tn, out.n) };
}

/** Python str(x or "")[:n]: the first n code points. */
function head(value: unknown, n: number): string {
  const s = pyTruthy(value) ? pyStr(value) : '';
  if (s.length <= n) return s;
  return Array.from(s).slice(0, n).join('');
}

/** judge_trust(rows, judge = None, gold = "gold_reward", ...): the keyword options use the SDK's names. */
export async function judgeTrust(input: readonly unknown[], options: JudgeTrustOptions = {}): Promise<JudgeTrustReport> {
  const gold = options.gold ?? 'gold_reward';
  const judge = options.judge ?? null;
  const sample = requireAtLeast('judge_trust', 'sample', options.sample ?? JUDGE_CHECK_SAMPLE, 1, JUDGE_CHECK_SAMPLE, true);
  const seed = options.seed ?? 0;
  const concurrency = requireAtLeast('judge_trust', 'concurrency', options.concurrency ?? 8, 1, 8, true);
  const minAgreement = requireUnit('judge_trust', 'min_agreement', options.min_agreement ?? MIN_AGREEMENT, MIN_AGREEMENT);
  const minKappa = options.min_kappa ?? MIN_KAPPA;
  if (!(typeof minKappa === 'number' && minKappa >= -1 && minKappa <= 1)) throw new StatsValueError(`judge_trust: min_kappa must lie between -1 and 1 (got ${String(minKappa)}); pass e.g. min_kappa=${MIN_KAPPA}`);
  const allowModelGold = options.allow_model_gold ?? false;
  const flipFlag = requireUnit('judge_trust', 'flip_flag', options.flip_flag ?? FLIP_FLAG, FLIP_FLAG);
  const maxSkippedShare = requireUnit('judge_trust', 'max_skipped_share', options.max_skipped_share ?? MAX_SKIPPED_SHARE, MAX_SKIPPED_SHARE);

  const rows = input.filter(isObject);
  const goldRows: Row[] = [];
  const labeled: Row[] = [];
  let nScored = 0;
  for (const r of rows) {
    const g = trustLabel(r[gold]);
    const j = trustLabel(r.reward);
    if (j !== null) nScored++;
    if (g === null) continue;
    goldRows.push(r);
    if (j !== null) labeled.push(r);
  }
  const skipped = skippedReport(goldRows, labeled.length, maxSkippedShare);
  const agree = withCi(rows, gold, allowModelGold);
  const halfOf = new Map<string, number>();
  const half = (r: Row): number => {
    const task = taskKey(r);
    let h = halfOf.get(task);
    if (h === undefined) { h = taskHalf(task); halfOf.set(task, h); }
    return h;
  };
  const halfA: Row[] = [];
  const halfB: Row[] = [];
  for (const r of labeled) (half(r) === 0 ? halfA : halfB).push(r);
  const halves = { a: withCi(halfA, gold, true), b: withCi(halfB, gold, true) };
  const goldKind = agree.gold_kind;
  const trusted = isTrustedGold(goldKind, allowModelGold);
  const length = lengthSensitivity(labeled, { gold, length_gap_flag: options.length_gap_flag ?? LENGTH_GAP_FLAG });
  const disagreements: JudgeTrustReport['disagreements'] = [];
  const goldValues = new Set<number>();
  for (const r of labeled) {
    const g = trustLabel(r[gold]) as number;
    const j = trustLabel(r.reward) as number;
    goldValues.add(g);
    if (g !== j) disagreements.push({ task: taskKey(r), gold: g, judge: j, reason: head(r.reason, 200), final_text: head(r.final_text, 200) });
  }
  const perturb = judge ? await perturbation(rows, judge, { sample, seed, concurrency, flip_flag: flipFlag }) : null;
  const probed =
    judge && pyTruthy(options.probes)
      ? await judgeProbes(rows, judge, { probes: options.probes as 'all' | readonly string[], rubric: options.rubric, sample, seed, concurrency, flip_flag: flipFlag })
      : null;

  const warnings: string[] = [...agree.warnings];
  const foreign = judge ? foreignRewardNote(labeled, judge, options.judge_name) : null;
  if (foreign) warnings.push(foreign);
  const skippedWarning = skippedLine(skipped, maxSkippedShare);
  if (skippedWarning) warnings.push(skippedWarning);
  const degenerate = labeled.length > 0 && goldValues.size === 1;
  if (degenerate) {
    const only = goldValues.values().next().value as number;
    warnings.push(
      `gold labels are all ${only}; kappa and the length check are uninformative until the gold set carries both passes and failures (label some ${only ? 'failures' : 'passes'})`,
    );
  }
  if (trusted && agree.n) warnings.push(...floorLines(agree, goldKind, degenerate, minAgreement, minKappa));
  const halves_ = halvesLine(halves.a, halves.b);
  if (halves_) warnings.push(halves_);
  const lengthWarning = lengthLine(length, degenerate);
  if (lengthWarning) warnings.push(lengthWarning);
  warnings.push(...perturbationLines(perturb));
  if (probed) warnings.push(...probed.warnings);
  const flagged = isFlagged(warnings);
  if (!labeled.length && !flagged) addUnmeasuredLine(warnings, nScored, goldRows.length, gold);

  return {
    ok: labeled.length > 0 && trusted && !flagged,
    n_rows: rows.length,
    n_labeled: labeled.length,
    gold_kind: goldKind,
    gold_degenerate: degenerate,
    floors: { min_agreement: minAgreement, min_kappa: minKappa, max_skipped_share: maxSkippedShare },
    skipped,
    agreement: agree,
    held_out_halves: halves,
    length_sensitivity: length,
    perturbation: perturb,
    probes: probed,
    exploitable_by: probed ? [...probed.exploitable_by] : [],
    disagreements,
    warnings,
  };
}
