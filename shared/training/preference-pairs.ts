// build_preference_pairs (the SDK's score/judging.py): same-prompt chosen/rejected pairs whose rewards differ by at
// least min_margin, the rejected side the closest in reply length. Prompts are keyed lower-cased and
// whitespace-collapsed. Split in two so a dataset of 100k rows can pair on light records and read only the paired rows.
import { replyLength } from '../schema/conversation';
import { pyDumps, pyFloat, pyNumber } from '../schema/py-json';
import { scrubValue } from '../schema/export-row';
import { pyStr, pyTruthy } from '../stats/keys';
import { pyRound } from '../stats/py-format';
import { collapsedLower } from './py-text';
import { pyStrip } from '../text/py-text';
import { evalSourcedWarning, isEvalSourced } from './eval-sourced';
import { TrainingValueError } from './export-settings';

type Obj = Record<string, unknown>;

const LENGTH_CONFOUND_MIN_PAIRS = 8;
const LENGTH_CONFOUND_SHARE = 0.75;
const LENGTH_CONFOUND_ALL_FROM = 3;

export interface PairOptions {
  max_pairs_per_prompt?: number;
  min_margin?: number;
  length_match?: boolean;
}

/** What pairing reads of a row. */
export interface PairCandidate {
  index: number;
  key: string;
  score: number;
  length: number;
}

/** A row's score when it can pair: judge_status ok (or absent), a reward in [0, 1] that is not a bool. */
export function pairScore(row: Obj): number | null {
  if ((row.judge_status ?? 'ok') !== 'ok') return null;
  if (typeof row.reward === 'boolean') return null;
  const v = pyNumber(row.reward);
  return v !== null && v >= 0 && v <= 1 ? v : null;
}

export function pairCandidate(row: Obj, index: number): PairCandidate | null {
  const score = pairScore(row);
  if (score === null) return null;
  const key = collapsedLower(pyTruthy(row.prompt) ? pyStr(row.prompt) : '');
  if (!key) return null;
  return { index, key, score, length: replyLength(row) };
}

export interface PairChoice {
  chosen: PairCandidate;
  rejected: PairCandidate;
}

/** The pairs, in prompt order, and how many prompts were seen and had a contrast. */
export function choosePairs(candidates: readonly PairCandidate[], options: PairOptions = {}): { pairs: PairChoice[]; promptsSeen: number; withContrast: number } {
  const maxPairs = options.max_pairs_per_prompt ?? 1;
  const minMargin = options.min_margin ?? 1.0;
  if (!(minMargin > 0)) throw new TrainingValueError('min_margin must be positive; equal scores carry no preference');
  const groups = new Map<string, PairCandidate[]>();
  for (const c of candidates) {
    const group = groups.get(c.key);
    if (group) group.push(c);
    else groups.set(c.key, [c]);
  }
  const pairs: PairChoice[] = [];
  let withContrast = 0;
  for (const members of groups.values()) {
    const ranked = [...members].sort((a, b) => b.score - a.score);
    const used = new Set<number>();
    let made = 0;
    for (let ci = 0; ci < ranked.length; ci++) {
      if (made >= maxPairs) break;
      if (used.has(ci)) continue;
      const chosen = ranked[ci];
      let best = -1;
      for (let ri = 0; ri < ranked.length; ri++) {
        if (used.has(ri) || ri === ci || chosen.score - ranked[ri].score < minMargin) continue;
        if (best < 0) best = ri;
        else if (options.length_match !== false && Math.abs(ranked[ri].length - chosen.length) < Math.abs(ranked[best].length - chosen.length)) best = ri;
        if (options.length_match === false) break;
      }
      if (best < 0) continue;
      used.add(ci).add(best);
      made++;
      pairs.push({ chosen, rejected: ranked[best] });
    }
    if (made) withContrast++;
  }
  return { pairs, promptsSeen: groups.size, withContrast };
}

/** What the policy emitted first, as the hosted DPO trainer reads it: its first tool call, else its first words. */
function firstTurn(row: Obj): string {
  const steps = (Array.isArray(row.steps) ? row.steps : []).filter((s): s is Obj => typeof s === 'object' && s !== null && !Array.isArray(s));
  for (const step of steps) {
    if (pyTruthy(step.tool)) {
      const args = step.arguments === undefined || step.arguments === null ? step.args : step.arguments;
      return pyDumps({ name: step.tool, arguments: pyTruthy(args) ? args : {} }, ', ', ': ', true);
    }
  }
  for (const step of steps) if (pyStrip(pyTruthy(step.text) ? pyStr(step.text) : '')) return pyStrip(pyStr(step.text));
  for (const m of Array.isArray(row.messages) ? row.messages : []) {
    if (typeof m === 'object' && m !== null && (m as Obj).role === 'assistant') {
      const t = pyStrip(pyTruthy((m as Obj).content) ? pyStr((m as Obj).content) : '');
      if (t) return t;
    }
  }
  return pyStrip(pyTruthy(row.final_text) ? pyStr(row.final_text) : '');
}

const modelOf = (row: Obj): string | null => (pyTruthy(row.model_version) ? pyStr(row.model_version) : null);

/** One pair with the scores, lineage and checks the SDK puts on it; both rows kept whole as the sides. */
export function pairOf(chosen: Obj, rejected: Obj, choice: PairChoice): Obj {
  const cModel = modelOf(chosen);
  const rModel = modelOf(rejected);
  return {
    prompt: chosen.prompt ?? null,
    chosen,
    rejected,
    chosen_score: pyFloat(choice.chosen.score),
    rejected_score: pyFloat(choice.rejected.score),
    margin: pyFloat(pyRound(choice.chosen.score - choice.rejected.score, 6)),
    chosen_model: cModel,
    rejected_model: rModel,
    same_policy: cModel && rModel ? cModel === rModel : null,
    length_delta: choice.chosen.length - choice.rejected.length,
    first_turn_differs: firstTurn(chosen) !== firstTurn(rejected),
    chosen_reason: pyTruthy(chosen.reason) ? pyStr(chosen.reason) : '',
    rejected_reason: pyTruthy(rejected.reason) ? pyStr(rejected.reason) : '',
    rejected_failure_class: rejected.failure_class ?? null,
    lineage: { chosen: scrubValue(chosen.lineage ?? null), rejected: scrubValue(rejected.lineage ?? null) },
  };
}

/** The length-confound note build_preference_pairs and export_preference share, or null. */
export function lengthConfoundWarning(chosenLonger: number, n: number): string | null {
  if (n <= 0) return null;
  const frac = chosenLonger / n;
  if ((n >= LENGTH_CONFOUND_MIN_PAIRS && frac >= LENGTH_CONFOUND_SHARE) || (n >= LENGTH_CONFOUND_ALL_FROM && chosenLonger === n)) {
    return `chosen is the longer reply in ${chosenLonger}/${n} pairs; a preference trainer learns length before behavior (Lambert 2025, chapter Direct Alignment)`;
  }
  return null;
}

export function firstTurnNote(identical: number, n: number): string {
  if (!identical) return '';
  return `${identical}/${n} pairs have identical first assistant turns (same opening tool call or line); their contrast is later in the rollout. A trainer that compares first turns only will drop them, leaving ${n - identical}. Keep the pairs whose first_turn_differs to see what it trains on, or export the whole conversations.`;
}

export function pairsReport(pairs: readonly Obj[], promptsSeen: number, withContrast: number, minMargin: number): Obj {
  const n = pairs.length;
  const deltas = pairs.map((p) => p.length_delta as number).sort((a, b) => a - b);
  const chosenLonger = deltas.filter((d) => d > 0).length;
  const same = pairs.filter((p) => p.same_policy === true).length;
  const mixed = pairs.filter((p) => p.same_policy === false).length;
  const score = (v: unknown) => pyNumber(v) as number;
  const partial = pairs.filter((p) => ![0, 1].includes(score(p.chosen_score)) || ![0, 1].includes(score(p.rejected_score))).length;
  const identical = pairs.filter((p) => !p.first_turn_differs).length;
  const warnings: string[] = [];
  const lengthNote = lengthConfoundWarning(chosenLonger, n);
  if (lengthNote) warnings.push(lengthNote);
  if (identical) warnings.push(firstTurnNote(identical, n));
  if (mixed) warnings.push(`${mixed}/${n} pairs mix policies (chosen and rejected from different models); on-policy pairs train better (Lambert 2025, chapter Preference Data)`);
  const evalPairs = pairs.filter((p) => isEvalSourced(p.chosen) || isEvalSourced(p.rejected)).length;
  if (evalPairs) warnings.push(evalSourcedWarning(evalPairs, 'pair(s)'));
  const marginSum = pairs.reduce((a, p) => a + score(p.margin), 0);
  return {
    pairs: n,
    prompts_seen: promptsSeen,
    prompts_with_contrast: withContrast,
    min_margin: minMargin,
    mean_margin: n ? pyRound(marginSum / n, 4) : null,
    partial_score_pairs: partial,
    first_turn_identical: identical,
    trainer_pairs: n - identical,
    same_policy_pairs: same,
    mixed_policy_pairs: mixed,
    eval_sourced: evalPairs,
    length: { median_delta: n ? deltas[Math.trunc(n / 2)] : null, chosen_longer: chosenLonger, chosen_longer_frac: n ? pyRound(chosenLonger / n, 3) : null },
    warnings,
    note: n ? '' : `pairs require the same prompt to have two rollouts whose rewards differ by at least ${minMargin}; raise the rollouts per task to create contrast`,
  };
}

/** build_preference_pairs(rows): (pairs, report). */
export function buildPreferencePairs(rows: readonly unknown[], options: PairOptions = {}): { pairs: Obj[]; report: Obj } {
  const objects = rows.map((r) => (typeof r === 'object' && r !== null && !Array.isArray(r) ? (r as Obj) : null));
  const candidates = objects.flatMap((row, i) => (row ? (pairCandidate(row, i) ?? []) : []));
  const { pairs, promptsSeen, withContrast } = choosePairs(candidates, options);
  const built = pairs.map((p) => pairOf(objects[p.chosen.index] as Obj, objects[p.rejected.index] as Obj, p));
  return { pairs: built, report: pairsReport(built, promptsSeen, withContrast, options.min_margin ?? 1.0) };
}
