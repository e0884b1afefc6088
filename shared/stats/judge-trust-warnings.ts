// judge_trust's warning lines, the flagged rule and the unmeasured line (stats-semantics §13.1 steps 9-11).
import { pyStr, pyTruthy, type Row } from './keys';
import { wilsonInterval } from './intervals';
import { pyFixed, pyG, pyPercent, pyRound } from './py-format';
import { goldWords, missingSideNote } from './agreement';
import { stampName } from './judge-fn';
import type { AgreementWithCi, SkippedReport } from './judge-trust';
import type { LengthSensitivity } from './length-sensitivity';
import type { PerturbationReport } from './perturbation';

/** MAX_GOLD_ASK = 200: the most labels the "label more" line will ask for. */
export const MAX_GOLD_ASK = 200;
/** LABEL_SEARCH_MAX = 1000: the label-more search stops here. */
export const LABEL_SEARCH_MAX = 1000;
/** GUESSING_KAPPA = 0.2: under it the judge matches the labels about as often as a coin flip. */
export const GUESSING_KAPPA = 0.2;
export const HALVES_GAP_FLAG = 0.15;
export const HALVES_MIN_ROWS = 10;

/** The line for labeled rows whose reward another scorer wrote (judge_name stamps other than the judge's). */
export function foreignRewardNote(labeled: readonly Row[], judge: unknown, judgeName?: string | null): string | null {
  const name = stampName(judge, judgeName);
  const others = new Map<string, number>();
  for (const r of labeled) {
    if (!pyTruthy(r.judge_name)) continue;
    const stamp = pyStr(r.judge_name);
    if (stamp !== name) others.set(stamp, (others.get(stamp) ?? 0) + 1);
  }
  if (!others.size) return null;
  const names = [...others.keys()].sort();
  const total = names.reduce((s, k) => s + (others.get(k) ?? 0), 0);
  const who = names.map((k) => `${k} (${others.get(k)})`).join(', ');
  return (
    `Judge under audit is ${name}, but the reward on ${total} of ${labeled.length} labeled rows was written by ${who}: ` +
    `agreement, kappa, the held-out halves and length sensitivity measure that scorer, and only the perturbation and probe passes ran on ${name}. ` +
    `Regrade the rows with ${name} (run_judge or data.grade), then run judge_trust again.`
  );
}

export function skippedLine(skipped: SkippedReport, maxSkippedShare: number): string | null {
  if (!skipped.fractional) return null;
  const examples = skipped.examples.map((x) => pyG(x)).join(', ');
  const fix =
    "A Rubric of plain principles scores the mean of its criteria; give each Criterion kind='hard' for a 0/1 verdict " +
    '(or threshold the reward yourself before judge_trust), then run it again.';
  if (skipped.over_floor) {
    return (
      `Judge agreement skipped ${skipped.fractional} of ${skipped.n_gold} labeled rows: the judge gave them a fractional reward (${examples}) ` +
      `and agreement counts exact 0/1 only. That is ${pyPercent(skipped.share)} of the sample, over the ${pyPercent(maxSkippedShare)} ` +
      `max_skipped_share floor (MAX_SKIPPED_SHARE), and the ${skipped.n_used} rows kept are the ones the judge was sure about, ` +
      `so the agreement above reads high by construction; \`ok\` is false. ${fix}`
    );
  }
  return `skipped ${skipped.fractional} of ${skipped.n_gold} labeled rows with a fractional reward (${examples}); under the ${pyPercent(maxSkippedShare)} max_skipped_share floor, so \`ok\` stands. ${fix}`;
}

/** The agreement and kappa floor lines (only asked for when the gold is trusted and n > 0). */
export function floorLines(agree: AgreementWithCi, goldKind: string | null, degenerate: boolean, minAgreement: number, minKappa: number): string[] {
  const out: string[] = [];
  const words = goldWords(goldKind);
  const low = agree.ci95 ? agree.ci95[0] : 0;
  if (low < minAgreement) {
    const point = agree.agreement || 0.0;
    let need = agree.n;
    if (point > minAgreement) {
      while (need < LABEL_SEARCH_MAX) {
        const ci = wilsonInterval(pyRound(point * need, 0), need);
        if (ci !== null && ci[0] >= minAgreement) break;
        need++;
      }
    }
    if (point > minAgreement && need <= MAX_GOLD_ASK) {
      out.push(
        `Judge agreement with ${words} is ${pyFixed(point, 2)} on ${agree.n} labels, but the lower bound is ${pyFixed(low, 2)}, under the ${pyFixed(minAgreement, 2)} floor. ` +
          `The judge is not the problem; the sample is. Label about ${need} rows (attach_labels(kind="${goldKind}")) and run judge_trust again.`,
      );
    } else {
      out.push(
        `Judge agreement with ${words} is ${pyFixed(low, 2)} (lower bound), under the ${pyFixed(minAgreement, 2)} floor. Change the judge prompt or the judge model, then run judge_trust again.`,
      );
    }
  }
  const k = agree.kappa;
  if (!degenerate && k !== null && k < minKappa) {
    const guessing =
      k < GUESSING_KAPPA
        ? `; under ${pyFixed(GUESSING_KAPPA, 1)} its verdicts match the labels about as often as a coin flip would: the judge is guessing, so fix what it is asked before reading any bias check`
        : '';
    out.push(
      `Judge agreement with ${words} beyond chance (kappa) is ${pyFixed(k, 2)}, under the ${pyFixed(minKappa, 2)} floor${guessing}. Change the judge prompt or the judge model, then run judge_trust again.`,
    );
  }
  return out;
}

export function halvesLine(a: AgreementWithCi, b: AgreementWithCi): string | null {
  if (a.agreement === null || b.agreement === null) return null;
  const gap = Math.abs(a.agreement - b.agreement);
  if (gap >= HALVES_GAP_FLAG && Math.min(a.n, b.n) >= HALVES_MIN_ROWS) {
    return `agreement differs by ${pyPercent(gap)} between task halves; the rubric may be fit to the examples it was tuned on`;
  }
  return null;
}

export function lengthLine(length: LengthSensitivity, degenerate: boolean): string | null {
  if (!length.flagged || degenerate) return null;
  return `judge pass rate differs by ${pyPercent(length.max_gap)} between short and long replies with the same gold label: length bias`;
}

export function perturbationLines(p: PerturbationReport | null): string[] {
  if (!p || !('consistency_flip_rate' in p)) return [];
  const out: string[] = [];
  if (p.flagged_consistency) {
    out.push(`${pyPercent(p.consistency_flip_rate ?? 0)} of verdicts flip on an identical re-judge; set temperature 0 or add a second sample`);
  }
  if (p.flagged_length) {
    out.push(
      `${pyPercent(p.filler_flip_rate ?? 0)} of verdicts flip when neutral filler is appended (${p.filler_flips_up} up, ${p.filler_flips_down} down): the judge reads length`,
    );
  }
  return out;
}

const FLAG_PREFIXES = [
  'Judge agreement with',
  'Judge agreement skipped',
  'Judge under audit is',
  'Judge kappa with',
  'judge pass rate differs',
  'judge passed',
  'judge is exploitable',
];

/** Whether any check found something, as opposed to not running (§13.1 step 10). */
export function isFlagged(warnings: readonly string[]): boolean {
  return warnings.some((w) => FLAG_PREFIXES.some((p) => w.startsWith(p)) || w.includes('flip'));
}

/** Step 11: nothing labeled and nothing flagged -> say the judge is unmeasured, replacing the bare missing-side note. */
export function addUnmeasuredLine(warnings: string[], nScored: number, nGold: number, gold: string): void {
  const note = missingSideNote(nScored, nGold, 'reward', gold);
  let line = `judge trust is unmeasured: \`ok\` is false for want of evidence, not for a failed check. ${note}`;
  if (nScored && !nGold) line += ' `probes="all"` with `judge=` tries the shortcuts a policy would find, labels or not.';
  const at = warnings.indexOf(note);
  if (at >= 0) warnings[at] = line;
  else warnings.push(line);
}
