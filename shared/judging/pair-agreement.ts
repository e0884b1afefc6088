// The pairwise judge against people's pair labels (docs/judges-rubric-pairwise.md). judge_pairs reads its judge
// against the pointwise scores (agrees_with_scores: the judge picks the side the scores chose, ties counting
// against it); here a person's pick takes the scores' place, counted the same way, and a person's tie is kept
// apart (the SDK's chosen side is never a tie), with the share of them the judge also called a tie.
import { wilsonInterval } from '../stats/intervals';
import { pyRound } from '../stats/py-format';
import type { PairWinner } from './pairwise';

/** A person's pick on a pair shown as A (the pair's chosen side) and B (its rejected side). */
export type PairPick = 'a' | 'b' | 'tie';

export interface PairAgreementInput {
  pair_key: string;
  /** The judge's winner (null: it failed on the pair, or the pair was not judged). */
  judge: PairWinner | null;
  /** The current pick of the people who labeled the pair (null: none). */
  human: PairPick | null;
}

export interface PairAgreementReport {
  /** Pairs with a person's pick. */
  n_labeled: number;
  /** Of those, pairs the judge decided (its winner not null). */
  n: number;
  /** Labeled pairs where the person picked a side and the judge decided. */
  n_sides: number;
  /** Share of n_sides where the judge picked the person's side (a judge tie counts against it), 4 places. */
  agrees_with_human: number | null;
  ci95: [number, number] | null;
  /** Count of n_sides where the judge picked the other side: the pairs to read. */
  prefers_other: number;
  judge_ties: number;
  /** Pairs the person called a tie, and how many of them the judge also called one. */
  human_ties: number;
  ties_matched: number;
  /** Share of n where judge and person give the same answer, a tie included. */
  exact_agreement: number | null;
  disagreements: Array<{ pair_key: string; judge: PairWinner; human: PairPick }>;
  warnings: string[];
}

const SIDE: Record<'a' | 'b', PairWinner> = { a: 'chosen', b: 'rejected' };
const AS_PICK: Record<PairWinner, PairPick> = { chosen: 'a', rejected: 'b', tie: 'tie' };

/** MIN_PAIR_LABELS = 50: under this many labeled pairs the number is coarse (judge_agreement's MIN_GOLD). */
export const MIN_PAIR_LABELS = 50;

export function pairAgreement(inputs: readonly PairAgreementInput[], examples = 10): PairAgreementReport {
  const labeled = inputs.filter((x) => x.human !== null);
  const decided = labeled.filter((x) => x.judge !== null) as Array<PairAgreementInput & { judge: PairWinner; human: PairPick }>;
  let sides = 0, agree = 0, prefersOther = 0, judgeTies = 0, humanTies = 0, tiesMatched = 0, same = 0;
  const disagreements: PairAgreementReport['disagreements'] = [];
  for (const x of decided) {
    if (AS_PICK[x.judge] === x.human) same++;
    else if (disagreements.length < examples) disagreements.push({ pair_key: x.pair_key, judge: x.judge, human: x.human });
    if (x.human === 'tie') {
      humanTies++;
      if (x.judge === 'tie') tiesMatched++;
      continue;
    }
    sides++;
    if (x.judge === 'tie') judgeTies++;
    else if (x.judge === SIDE[x.human]) agree++;
    else prefersOther++;
  }
  const warnings: string[] = [];
  if (labeled.length === 0) warnings.push('no pair carries a person\'s label yet: label pairs with a, b or = in the label desk');
  else if (decided.length === 0) warnings.push('the judge decided none of the labeled pairs, so there is nothing to compare');
  else if (decided.length < MIN_PAIR_LABELS) warnings.push(`${decided.length} labeled pairs the judge decided: a coarse estimate; label about ${MIN_PAIR_LABELS} for a usable one`);
  return {
    n_labeled: labeled.length,
    n: decided.length,
    n_sides: sides,
    agrees_with_human: sides ? pyRound(agree / sides, 4) : null,
    ci95: wilsonInterval(agree, sides),
    prefers_other: prefersOther,
    judge_ties: judgeTies,
    human_ties: humanTies,
    ties_matched: tiesMatched,
    exact_agreement: decided.length ? pyRound(same / decided.length, 4) : null,
    disagreements,
    warnings,
  };
}
