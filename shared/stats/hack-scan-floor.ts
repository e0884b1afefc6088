// hack_scan's noise floor `tau` (docs/hack-scan.md, "The noise floor"): the (1 - alpha) quantile of the strongest
// |within-ask rho| when reward is shuffled within ask, `n_perm` times. The shuffles are CPython's random.Random(seed)
// draws in the SDK's order (each ask's current values shuffled in turn, one pass after another), so tau is the SDK's.
import { dot, type Feature, type ScanFrame } from './hack-scan-features';
import { PyRandom, type PySeed } from './random';

export interface FloorInput {
  frame: ScanFrame;
  features: readonly Feature[];
  /** Rows of each ask that holds two or more, in ask order. */
  multi: readonly Int32Array[];
  /** Mean reward of each ask (of the unshuffled rewards: a shuffle within an ask keeps it). */
  groupMean: Float64Array;
  nPerm: number;
  seed: PySeed;
  alpha: number;
}

/** The strongest |rho| of each shuffle, ascending. */
export function nullMaxima(input: FloorInput): number[] {
  const { frame, features, multi, groupMean } = input;
  const { n, groupOfRow, sr } = frame;
  const rng = new PyRandom(input.seed);
  const perm = Float64Array.from(frame.rewards);
  const centred = new Float64Array(n);
  const scale = features.map((feature) => n * feature.sdWithin * sr);
  const live = features.map((feature) => feature.sdWithin > 0);
  const vals: number[] = [];
  const nulls: number[] = [];
  const passes = Math.max(1, Math.trunc(input.nPerm));
  for (let pass = 0; pass < passes; pass++) {
    for (const idx of multi) {
      vals.length = idx.length;
      for (let k = 0; k < idx.length; k++) vals[k] = perm[idx[k]];
      for (let i = idx.length - 1; i > 0; i--) {
        const j = rng.randrange(i + 1);
        const t = vals[i];
        vals[i] = vals[j];
        vals[j] = t;
      }
      for (let k = 0; k < idx.length; k++) perm[idx[k]] = vals[k];
    }
    for (let i = 0; i < n; i++) centred[i] = perm[i] - groupMean[groupOfRow[i]];
    let best = 0;
    for (let f = 0; f < features.length; f++) {
      if (!live[f]) continue;
      const value = Math.abs(dot(features[f], centred) / scale[f]);
      if (value > best) best = value;
    }
    nulls.push(best);
  }
  return nulls.sort((a, b) => a - b);
}

/** tau: the (1 - alpha) quantile of the shuffles' maxima, by the SDK's index (Python's negative indexing included). */
export function floorOf(nulls: readonly number[], alpha: number): number {
  if (nulls.length === 0) return 0;
  let at = Math.min(nulls.length - 1, Math.ceil((1 - alpha) * nulls.length) - 1);
  if (at < 0) at += nulls.length;
  if (at < 0) throw new RangeError(`alpha ${alpha} leaves no quantile of ${nulls.length} shuffles`);
  return nulls[at];
}
