// Python number formatting and rounding (stats-semantics.md section 1: round() and format specs, ties to even on the exact binary value).

/** Python repr of a float: shortest round-trip digits, "3.0" for whole numbers, exponent outside [1e-4, 1e16). */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const abs = Math.abs(x);
  if (abs >= 1e16 || abs < 1e-4) {
    const [mant, exp] = x.toExponential().split('e');
    const e = Number(exp);
    return `${mant}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  }
  const s = String(x);
  return s.includes('.') || s.includes('e') ? s : `${s}.0`;
}

/** Exact decimal digits of x to `d` places with ties (exact halves only) to even, as Python's `format(x, '.df')`. */
export function pyFixed(x: number, d: number): string {
  if (!Number.isFinite(x)) return pyFloatRepr(x);
  if (Math.abs(x) >= 1e21) return x.toFixed(0);
  const digits = Math.max(0, Math.min(100, Math.trunc(d)));
  const out = x.toFixed(digits);
  // Fast path: an exact tie needs x * 10^d to sit on a half; far from one, toFixed is already right.
  const scaled = Math.abs(x) * 10 ** digits;
  if (scaled < 1e15 && Math.abs((scaled % 1) - 0.5) > 1e-6) return out;
  // toFixed rounds exact ties away from zero; Python rounds them to even.
  const longer = x.toFixed(Math.min(100, digits + 60));
  const tail = longer.slice(longer.length - 60);
  if (tail[0] === '5' && /^50*$/.test(tail)) {
    const truncated = longer.slice(0, longer.length - 60).replace(/\.$/, '');
    const lastDigit = Number(truncated[truncated.length - 1]);
    if (lastDigit % 2 === 0) return digits === 0 ? truncated.replace(/\.$/, '') : truncated;
  }
  return out;
}

/** Python round(x, d) for floats. */
export function pyRound(x: number, d = 0): number {
  if (!Number.isFinite(x)) return x;
  const r = Number(pyFixed(x, d));
  return r === 0 && (x < 0 || Object.is(x, -0)) ? -0 : r;
}

/** round() of a value that may be null. */
export function roundOrNull(x: number | null | undefined, d: number): number | null {
  return x === null || x === undefined || Number.isNaN(x) ? null : pyRound(x, d);
}

/** Python `format(x, '.0%')`-style percent with `d` decimals. */
export function pyPercent(x: number, d = 0): string {
  return `${pyFixed(x * 100, d)}%`;
}

/** Python `format(x, '+.3f')`. */
export function pySigned(x: number, d: number): string {
  const s = pyFixed(x, d);
  return s.startsWith('-') ? s : `+${s}`;
}

/** Python `format(x, 'g')` (6 significant digits, trailing zeros dropped). */
export function pyG(x: number, precision = 6): string {
  if (!Number.isFinite(x)) return pyFloatRepr(x);
  if (x === 0) return '0';
  const exp = Math.floor(Math.log10(Math.abs(Number(x.toPrecision(precision)))));
  if (exp < -4 || exp >= precision) {
    const [mant, e] = x.toExponential(precision - 1).split('e');
    const m = mant.includes('.') ? mant.replace(/0+$/, '').replace(/\.$/, '') : mant;
    const en = Number(e);
    return `${m}e${en < 0 ? '-' : '+'}${String(Math.abs(en)).padStart(2, '0')}`;
  }
  const fixed = pyFixed(x, Math.max(0, precision - 1 - exp));
  return fixed.includes('.') ? fixed.replace(/0+$/, '').replace(/\.$/, '') : fixed;
}
