// Number formats the platform's sentences use (platform-api.md §5 notation): fmt_g, fmt_sg and one().
import { pyFixed, pyG } from '../stats/py-format';
import { pyStr } from '../stats/keys';

/** Python `%g`: up to 6 significant digits, trailing zeros dropped (5.0 -> "5"). */
export const fmtG = (x: number): string => pyG(x);

/** Python `%+g`: always signed (+5, -2.5). */
export function fmtSg(x: number): string {
  if (Object.is(x, -0)) return '-0'; // round(-0.04, 1) is -0.0, which Python prints signed
  const text = pyG(x);
  return text.startsWith('-') ? text : `+${text}`;
}

/** One decimal, then trailing "0" and "." stripped: 83.0 -> "83", 2.75 -> "2.8". */
export function one(x: number): string {
  return pyFixed(x, 1).replace(/0+$/, '').replace(/\.$/, '');
}

/** Python str() of an integer count or id (240 -> "240"). */
export const str = (value: unknown): string => pyStr(value);
