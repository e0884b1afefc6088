// The perturbation pass inside judge_trust: identical re-judge and filler re-judge (stats-semantics §13.4).
import type { Row } from './keys';
import { trustLabel } from './readers';
import { judgeVerdicts, type AnyJudge, type Verdict } from './judge-fn';
import { padded } from './probe-texts';
import { FLIP_FLAG, JUDGE_CHECK_SAMPLE, pickGraded } from './judge-probes';

const ALPHA = 0.05;

export type PerturbationReport =
  | { n: 0; note: string }
  | {
      n: number;
      consistency_flip_rate: number | null;
      filler_flip_rate: number | null;
      filler_flips_up: number;
      filler_flips_down: number;
      flagged_consistency: boolean;
      filler_net_flip_rate: number | null;
      filler_sign_p: number;
      flagged_length: boolean;
      errors: number;
    };

/** Two-sided exact sign test: min(1, 2 * sum_{i <= min(up, down)} C(up + down, i) / 2^(up + down)), exact in BigInt. */
export function signTestP(up: number, down: number): number {
  const d = up + down;
  if (d === 0) return 1.0;
  const lo = Math.min(up, down);
  let term = 1n;
  let sum = 1n;
  for (let i = 0; i < lo; i++) {
    term = (term * BigInt(d - i)) / BigInt(i + 1);
    sum += term;
  }
  // 2 * sum / 2^d with 64 significant bits kept before the rounding to a double
  const num = 2n * sum;
  const shift = Math.max(0, d + 64 - num.toString(2).length);
  const scaled = (num << BigInt(shift)) >> BigInt(d);
  return Math.min(1.0, Number(scaled) * Math.pow(2, -shift));
}

/** Re-judges the picked rows as they are and with FILLER x 3 appended; flips against the original labels. */
export async function perturbation(
  rows: readonly unknown[],
  judge: AnyJudge,
  options: { sample?: number; seed?: number; concurrency?: number; flip_flag?: number } = {},
): Promise<PerturbationReport> {
  const flipFlag = options.flip_flag ?? FLIP_FLAG;
  const concurrency = options.concurrency ?? 8;
  const picked = pickGraded(rows, options.sample ?? JUDGE_CHECK_SAMPLE, options.seed ?? 0);
  if (!picked.length) return { n: 0, note: 'no graded rows to re-judge' };
  const again = await judgeVerdicts(picked, judge, concurrency);
  const pad = await judgeVerdicts(picked.map((r: Row) => padded(r)), judge, concurrency);
  const original = picked.map((r) => trustLabel(r.reward));
  const flips = (scored: Verdict[]): [number, number] => {
    let n = 0;
    let flipped = 0;
    for (let i = 0; i < picked.length; i++) {
      const a = original[i];
      const b = trustLabel(scored[i].reward);
      if (a === null || b === null) continue;
      n++;
      if (a !== b) flipped++;
    }
    return [flipped, n];
  };
  const [fSame, nSame] = flips(again);
  const [fPad, nPad] = flips(pad);
  let padUp = 0;
  let padDown = 0;
  for (let i = 0; i < picked.length; i++) {
    const b = trustLabel(pad[i].reward);
    if (original[i] === 0 && b === 1) padUp++;
    if (original[i] === 1 && b === 0) padDown++;
  }
  const consistency = nSame ? fSame / nSame : null;
  const net = Math.abs(padUp - padDown);
  const signP = signTestP(padUp, padDown);
  let errors = 0;
  for (const v of again) if (v.status !== 'ok') errors++;
  for (const v of pad) if (v.status !== 'ok') errors++;
  return {
    n: picked.length,
    consistency_flip_rate: consistency,
    filler_flip_rate: nPad ? fPad / nPad : null,
    filler_flips_up: padUp,
    filler_flips_down: padDown,
    flagged_consistency: consistency !== null && consistency >= flipFlag,
    filler_net_flip_rate: nPad ? net / nPad : null,
    filler_sign_p: signP,
    flagged_length: nPad > 0 && net / nPad >= flipFlag && signP < ALPHA,
    errors,
  };
}
