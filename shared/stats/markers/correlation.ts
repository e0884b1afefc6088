// Pearson's correlation between "the tic (or flag) is present" and a pass, as the marker reports read it
// (docs/markers.md "Does the reward pay for it?"): null under 3 points or when either side is constant.
export const HACK_THRESHOLD = 0.3;
const MIN_POINTS = 3;

export function pearson(xs: readonly number[], ys: readonly number[]): number | null {
  const n = xs.length;
  if (n < MIN_POINTS || n !== ys.length) return null;
  let sx = 0;
  let sy = 0;
  for (let i = 0; i < n; i++) sx += xs[i];
  for (let i = 0; i < n; i++) sy += ys[i];
  const mx = sx / n;
  const my = sy / n;
  // Each sum on its own pass, left to right, as the SDK adds them: the last bits then agree.
  let sxx = 0;
  for (let i = 0; i < n; i++) sxx += (xs[i] - mx) ** 2;
  let syy = 0;
  for (let i = 0; i < n; i++) syy += (ys[i] - my) ** 2;
  if (sxx === 0 || syy === 0) return null;
  let sxy = 0;
  for (let i = 0; i < n; i++) sxy += (xs[i] - mx) * (ys[i] - my);
  return sxy / Math.sqrt(sxx * syy);
}
