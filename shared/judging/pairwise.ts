// Pairwise judging (judge_pairs, docs/judges-rubric-pairwise.md): which of two replies to one request is better,
// asked both ways round; a pair whose answer changes with the order is a tie on the evidence (position bias).
import { isObject, pyStr, pyTruthy } from '../stats/keys';
import { pyRound } from '../stats/py-format';
import { parseOrderedJson } from '../text/ordered-json';

type Obj = Record<string, unknown>;

/** POSITION_FLIP_FLAG = 0.2: flips per swapped pair at which the report warns of position bias. */
export const POSITION_FLIP_FLAG = 0.2;
/** PREFERS_REJECTED_FLAG = 0.2: share of judged pairs won by the rejected side at which the report warns. */
export const PREFERS_REJECTED_FLAG = 0.2;
/** How much of a judge's failure is kept as its reason. */
export const PAIR_ERROR_CHARS = 200;

export type Side = 'A' | 'B' | 'tie';
export type PairWinner = 'chosen' | 'rejected' | 'tie';

export interface PairVerdict {
  winner: Side | null;
  reason: string;
}

/** A judge of one ordered pair: (a_row, b_row) -> {winner: "A" | "B" | "tie", reason} or that JSON as text. */
export type PairJudge = (a: Obj, b: Obj) => unknown;

const WINNER_TEXT = /"?winner"?\s*:\s*"?(A|B|tie)"?/i;

/** parse_pairwise: the text's first "{" to last "}" as JSON with a winner, else a `winner: X` anywhere in it. */
export function parsePairwise(text: unknown): PairVerdict {
  const raw = (pyTruthy(text) ? pyStr(text) : '').trim();
  const start = raw.indexOf('{');
  const end = raw.lastIndexOf('}');
  if (start !== -1 && end > start) {
    let parsed: unknown = null;
    try {
      parsed = parseOrderedJson(raw.slice(start, end + 1)); // json.loads: NaN and Infinity are read too
    } catch {
      parsed = null;
    }
    if (isObject(parsed)) {
      const winner = (pyTruthy(parsed.winner) ? pyStr(parsed.winner) : '').trim().toLowerCase();
      const reason = (pyTruthy(parsed.reason) ? pyStr(parsed.reason) : '').trim();
      if (winner === 'a' || winner === 'b') return { winner: winner.toUpperCase() as Side, reason };
      if (winner === 'tie') return { winner: 'tie', reason };
    }
  }
  const match = WINNER_TEXT.exec(raw);
  if (match) return { winner: match[1].toLowerCase() === 'tie' ? 'tie' : (match[1].toUpperCase() as Side), reason: '' };
  return { winner: null, reason: '' };
}

/** What a judge's failure reads as: "Type: message", cut to PAIR_ERROR_CHARS. */
export function pairErrorReason(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : `Error: ${String(error)}`;
  return text.slice(0, PAIR_ERROR_CHARS);
}

/** The SDK's _verdict: a string is parsed, an object's `winner` read ("a", "B", "Tie" ...), anything else fails. */
export function pairVerdictOf(out: unknown): PairVerdict {
  if (typeof out === 'string') return parsePairwise(out);
  if (isObject(out)) {
    let winner: Side | null = null;
    if (typeof out.winner === 'string') {
      const w = out.winner.trim().toLowerCase();
      winner = w === 'tie' ? 'tie' : w === 'a' || w === 'b' ? (w.toUpperCase() as Side) : null;
    }
    return { winner, reason: pyTruthy(out.reason) ? pyStr(out.reason) : '' };
  }
  return { winner: null, reason: 'judge returned neither a dict nor a string' };
}

async function askJudge(judge: PairJudge, a: Obj, b: Obj): Promise<PairVerdict> {
  try {
    return pairVerdictOf(await judge(a, b));
  } catch (error) {
    return { winner: null, reason: pairErrorReason(error) };
  }
}

export interface PairResult {
  winner: PairWinner | null;
  position_consistent: boolean | null;
  swapped: boolean;
  reasons: string[];
  judge?: string;
}

const AS_FIRST: Record<Side, PairWinner> = { A: 'chosen', B: 'rejected', tie: 'tie' };
const AS_SECOND: Record<Side, PairWinner> = { A: 'rejected', B: 'chosen', tie: 'tie' };

/** One pair: chosen as A, then (with swap) rejected as A; two orders that disagree make a tie. */
export async function judgeOnePair(judge: PairJudge, pair: Obj, swap: boolean): Promise<PairResult> {
  const chosen = pair.chosen as Obj;
  const rejected = pair.rejected as Obj;
  const first = await askJudge(judge, chosen, rejected);
  const asFirst = first.winner ? AS_FIRST[first.winner] : null;
  const reasons = first.reason ? [first.reason] : [];
  if (!swap) return { winner: asFirst, position_consistent: null, swapped: false, reasons };
  const second = await askJudge(judge, rejected, chosen);
  const asSecond = second.winner ? AS_SECOND[second.winner] : null;
  if (second.reason) reasons.push(second.reason);
  if (asFirst === null || asSecond === null) return { winner: asFirst ?? asSecond, position_consistent: null, swapped: true, reasons };
  const consistent = asFirst === asSecond;
  return { winner: consistent ? asFirst : 'tie', position_consistent: consistent, swapped: true, reasons };
}

export interface JudgePairsOptions {
  swap?: boolean;
  concurrency?: number;
  examples?: number;
  position_flip_flag?: number;
  prefers_rejected_flag?: number;
  /** The judge's name in the report and on each pair (the SDK takes the function's __name__). */
  judge_name?: string;
}

export interface JudgePairsReport {
  n: number;
  n_judged: number;
  failed: number;
  judge: string;
  swap: boolean;
  position_flip_rate: number | null;
  tie_rate: number | null;
  agrees_with_scores: number | null;
  prefers_rejected: number;
  disagreements: Array<{ prompt: string; chosen_score: unknown; rejected_score: unknown; reasons: string[] }>;
  warnings: string[];
}

/** Runs `work` over items with at most `limit` in flight; results in item order. */
async function mapLimited<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  return out;
}

export class PairsInputError extends Error {
  readonly pythonType = 'ValueError';
}

/**
 * judge_pairs(pairs, judge): writes `pairwise` ({winner, position_consistent, swapped, reasons, judge}) and `tie` on
 * each pair (copies; the input is left as it was) and returns the SDK's report beside them.
 */
export async function judgePairs(pairs: readonly unknown[], judge: PairJudge, options: JudgePairsOptions = {}): Promise<{ pairs: Obj[]; report: JudgePairsReport }> {
  const swap = options.swap ?? true;
  const examples = options.examples ?? 10;
  const flipFlag = options.position_flip_flag ?? POSITION_FLIP_FLAG;
  const rejectedFlag = options.prefers_rejected_flag ?? PREFERS_REJECTED_FLAG;
  const entries = pairs.filter(isObject);
  const bad = entries.flatMap((p, i) => (isObject(p.chosen) && isObject(p.rejected) ? [] : [i]));
  if (bad.length > 0) throw new PairsInputError(`${bad.length} entries are not pairs (each needs a chosen and a rejected row); the first is at ${bad[0]}`);
  const name = options.judge_name ?? (judge.name || 'judge');
  const results = await mapLimited(entries, options.concurrency ?? 8, (pair) => judgeOnePair(judge, pair, swap));
  let judged = 0, failed = 0, flips = 0, ties = 0, agree = 0, prefersRejected = 0, swapped = 0;
  const disagreements: JudgePairsReport['disagreements'] = [];
  const out = entries.map((pair, i) => {
    const res = { ...results[i], judge: name };
    const written: Obj = { ...pair, pairwise: res, tie: res.winner === 'tie' };
    if (res.winner === null) {
      failed++;
      return written;
    }
    judged++;
    if (res.swapped && res.position_consistent !== null) {
      swapped++;
      if (!res.position_consistent) flips++;
    }
    if (res.winner === 'tie') ties++;
    else if (res.winner === 'chosen') agree++;
    else {
      prefersRejected++;
      if (disagreements.length < examples) {
        const prompt = pyTruthy(pair.prompt) ? pair.prompt : (pair.chosen as Obj).prompt;
        disagreements.push({ prompt: Array.from(pyTruthy(prompt) ? pyStr(prompt) : '').slice(0, 160).join(''), chosen_score: pair.chosen_score ?? null, rejected_score: pair.rejected_score ?? null, reasons: res.reasons });
      }
    }
    return written;
  });
  const report: JudgePairsReport = {
    n: entries.length,
    n_judged: judged,
    failed,
    judge: name,
    swap,
    position_flip_rate: swapped ? pyRound(flips / swapped, 4) : null,
    tie_rate: judged ? pyRound(ties / judged, 4) : null,
    agrees_with_scores: judged ? pyRound(agree / judged, 4) : null,
    prefers_rejected: prefersRejected,
    disagreements,
    warnings: [],
  };
  if (swapped && flips / swapped >= flipFlag) {
    report.warnings.push(`position bias: the judge's answer changed when the two replies swapped places in ${flips} of ${swapped} pairs; those pairs count as ties, and the judge's prompt needs work`);
  }
  if (judged && prefersRejected / judged >= rejectedFlag) {
    report.warnings.push(`the pairwise judge picks the rejected side in ${prefersRejected} of ${judged} pairs: it and the pointwise scores disagree on what a good reply is`);
  }
  return { pairs: out, report };
}
