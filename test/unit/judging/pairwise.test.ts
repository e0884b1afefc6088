// Pairwise judging (shared/judging/pairwise.ts) and the judge against people's pair labels (pair-agreement.ts).
import { describe, expect, it } from 'vitest';
import { pairAgreement } from '../../../shared/judging/pair-agreement';
import { judgePairs, pairVerdictOf, parsePairwise, PairsInputError } from '../../../shared/judging/pairwise';

const row = (text: string) => ({ prompt: 'Refund A-1', final_text: text });
const pair = (a: string, b: string) => ({ chosen: row(a), rejected: row(b), chosen_score: 1, rejected_score: 0 });

describe('judge_pairs', () => {
  it('asks both ways round: a consistent answer stands, a flip is a tie with position_consistent false', async () => {
    const longer = (a: Record<string, unknown>, b: Record<string, unknown>) => ({ winner: String(a.final_text).length >= String(b.final_text).length ? 'A' : 'B' });
    const first = () => ({ winner: 'A', reason: 'first' });
    const pairs = [pair('a long reply', 'short'), pair('short', 'a long reply')];
    const byLength = await judgePairs(pairs, longer, { judge_name: 'longer' });
    expect(byLength.pairs.map((p) => (p.pairwise as { winner: string }).winner)).toEqual(['chosen', 'rejected']);
    expect(byLength.report).toMatchObject({ n: 2, n_judged: 2, position_flip_rate: 0, tie_rate: 0, agrees_with_scores: 0.5, prefers_rejected: 1, judge: 'longer' });
    const biased = await judgePairs(pairs, first);
    expect(biased.pairs.every((p) => p.tie === true && (p.pairwise as { position_consistent: boolean }).position_consistent === false)).toBe(true);
    expect(biased.report.position_flip_rate).toBe(1);
    expect(biased.report.warnings.join(' ')).toMatch(/position bias/);
    expect(pairs[0]).not.toHaveProperty('pairwise');
  });

  it('a failed order leaves the other one; both failed is a failed pair', async () => {
    let calls = 0;
    const flaky = () => {
      calls++;
      if (calls % 2 === 1) throw new Error('model down');
      return '{"winner": "B"}';
    };
    const out = await judgePairs([pair('x', 'y')], flaky);
    expect(out.pairs[0].pairwise).toMatchObject({ winner: 'chosen', position_consistent: null, swapped: true, reasons: ['Error: model down'] });
    const dead = await judgePairs([pair('x', 'y')], () => 7);
    expect(dead.report).toMatchObject({ failed: 1, n_judged: 0, tie_rate: null, agrees_with_scores: null, position_flip_rate: null });
    await expect(judgePairs([{ chosen: row('a') }], () => 'A')).rejects.toThrow(PairsInputError);
  });

  it('reads winners from text and objects as the SDK does', () => {
    expect(parsePairwise('{"winner": "b", "reason": " shorter "}')).toEqual({ winner: 'B', reason: 'shorter' });
    expect(parsePairwise('the winner: TIE')).toEqual({ winner: 'tie', reason: '' });
    expect(parsePairwise('I like A')).toEqual({ winner: null, reason: '' });
    expect(parsePairwise('A').winner).toBeNull(); // a bare letter is no verdict: the SDK reads JSON or `winner: X`
    expect(pairVerdictOf({ winner: ' Tie ', reason: 3 })).toEqual({ winner: 'tie', reason: '3' });
    expect(pairVerdictOf({ winner: 'C' }).winner).toBeNull();
    expect(pairVerdictOf(1).winner).toBeNull();
  });
});

describe('pairAgreement', () => {
  it('counts the judge against a person\'s side like agrees_with_scores; a person\'s tie apart', () => {
    const report = pairAgreement([
      { pair_key: 'p1', judge: 'chosen', human: 'a' },
      { pair_key: 'p2', judge: 'rejected', human: 'a' },
      { pair_key: 'p3', judge: 'tie', human: 'b' },
      { pair_key: 'p4', judge: 'rejected', human: 'b' },
      { pair_key: 'p5', judge: 'tie', human: 'tie' },
      { pair_key: 'p6', judge: 'chosen', human: 'tie' },
      { pair_key: 'p7', judge: null, human: 'a' },
      { pair_key: 'p8', judge: 'chosen', human: null },
    ]);
    expect(report).toMatchObject({ n_labeled: 7, n: 6, n_sides: 4, agrees_with_human: 0.5, prefers_other: 1, judge_ties: 1, human_ties: 2, ties_matched: 1, exact_agreement: 0.5 });
    expect(report.disagreements.map((d) => d.pair_key)).toEqual(['p2', 'p3', 'p6']);
    expect(report.ci95![0]).toBeLessThan(0.5);
    expect(pairAgreement([]).warnings[0]).toMatch(/no pair carries/);
  });
});
