// Turns whatever a judge returned into a JudgeVerdict (sdk-semantics §5.1): a reward is never invented. The one
// verdict normaliser: module judges (after their worker reduced the value to plain data), LLM judges.
import type { JudgeStatus, JudgeVerdict } from './judge-types';

export { errorText } from './error-text';

type Obj = Record<string, unknown>;

/** A plain object: Object.prototype or no prototype (class instances, arrays, Maps are not verdicts). */
const isObject = (value: unknown): value is Obj => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/** Only the judge's own keys count: a reward inherited from a polluted prototype is no reward. */
const own = (object: Obj, key: string): unknown => (Object.hasOwn(object, key) ? object[key] : undefined);

/** An int when exactly 0 or 1, else rounded to 6 places (§5.1). */
function tidy(value: number): number {
  return value === 0 || value === 1 ? value : Math.round(value * 1e6) / 1e6;
}

export function failed(judgeName: string, status: Exclude<JudgeStatus, 'ok'>, meta: Obj): JudgeVerdict {
  return { reward: null, judge_status: status, judge_name: judgeName, judge_meta: meta };
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** Checks that markers is {name: finite number}; returns the problem, or null. */
export function markersProblem(markers: unknown): string | null {
  if (!isObject(markers)) return `markers must be an object of {name: number}, got ${typeName(markers)}`;
  for (const [name, value] of Object.entries(markers)) {
    if (typeof value !== 'number' || !Number.isFinite(value)) return `markers.${name} must be a number, got ${typeName(value)}`;
  }
  return null;
}

/**
 * `scale` = [lo, hi] maps a Likert rating to (v − lo) / (hi − lo); without it a reward must lie in [0, 1].
 * null or undefined counts as a missing reward; a boolean becomes 0 or 1.
 */
export function normalizeJudgeResult(result: unknown, judgeName: string, scale?: [number, number]): JudgeVerdict {
  if (scale && !(scale[1] > scale[0])) throw new Error(`a judge scale needs hi > lo (got [${scale.join(', ')}])`);
  if (result === null || result === undefined) return failed(judgeName, 'missing_reward', { returned_type: typeName(result) });
  if (typeof result === 'object' && !Array.isArray(result) && !isObject(result)) return failed(judgeName, 'invalid_result', { returned_type: 'object', problem: 'a judge returns a number, a boolean or a plain object' });
  let value: unknown = result;
  let reason: string | undefined;
  let meta: Obj = {};
  let markers: Record<string, number> | undefined;
  if (isObject(result)) {
    const keys = scale ? ['rating', 'score', 'reward'] : ['reward', 'score'];
    const key = keys.find((candidate) => own(result, candidate) !== undefined && own(result, candidate) !== null);
    if (!key) return failed(judgeName, 'missing_reward', { returned_keys: Object.keys(result).sort() });
    value = own(result, key);
    if (typeof value !== 'number' && typeof value !== 'boolean') return failed(judgeName, 'invalid_result', { reward_type: typeName(value) });
    const { reward: _r, score: _s, reason: _reason, judge_meta: _nested, ...rest } = result;
    const rawReason = own(result, 'reason');
    const nested = own(result, 'judge_meta');
    meta = { ...rest, ...(isObject(nested) ? nested : {}) };
    if (scale) delete meta.rating;
    if (rawReason !== undefined && rawReason !== null && rawReason !== '') reason = String(rawReason);
    const rawMarkers = own(result, 'markers');
    if (rawMarkers !== undefined) {
      const problem = markersProblem(rawMarkers);
      if (problem) return failed(judgeName, 'invalid_result', { markers_invalid: problem });
      markers = rawMarkers as Record<string, number>;
    }
  }
  if (typeof value === 'boolean') value = value ? 1 : 0;
  if (typeof value !== 'number') return failed(judgeName, 'invalid_result', { returned_type: typeName(value) });
  if (!Number.isFinite(value)) return failed(judgeName, 'invalid_result', { reward_type: String(value) });
  let reward: number;
  if (scale) {
    const [lo, hi] = scale;
    if (value < lo || value > hi) return failed(judgeName, 'invalid_result', { rating_out_of_scale: value, scale });
    reward = tidy((value - lo) / (hi - lo));
    meta = { ...meta, rating: value, scale };
  } else {
    if (value < 0 || value > 1) return failed(judgeName, 'invalid_result', { reward_out_of_range: value });
    reward = tidy(value);
  }
  const verdict: JudgeVerdict = { reward, judge_status: 'ok', judge_name: judgeName };
  if (reason) verdict.reason = reason;
  if (markers) verdict.markers = markers;
  if (Object.keys(meta).length > 0) verdict.judge_meta = meta;
  return verdict;
}

/** Runs one judging call with a deadline and the caller's cancel signal. */
export async function withDeadline<T>(work: () => Promise<T> | T, timeoutMs: number, signal?: AbortSignal): Promise<{ ok: true; value: T } | { ok: false; timedOut: boolean; error: unknown }> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const aborted = new Promise<never>((_resolve, reject) => {
    if (!signal) return;
    onAbort = () => reject(signal.reason ?? new Error('aborted'));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const outcome = await Promise.race([Promise.resolve().then(work).then((value) => ({ value })), deadline, aborted]);
    if (outcome === 'timeout') return { ok: false, timedOut: true, error: new Error(`no verdict within ${timeoutMs} ms`) };
    return { ok: true, value: outcome.value };
  } catch (error) {
    if (signal?.aborted) throw error;
    return { ok: false, timedOut: false, error };
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}
