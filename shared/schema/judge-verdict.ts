// The one verdict normaliser (sdk-semantics §5.1, normalize_judge_result): whatever a judge returned becomes a reward
// and a status, and a reward is never invented. Every answer a person's code or a model gives goes through it:
// module and LLM judges in the engine (main/judges/normalize-verdict.ts shapes its result into a row's verdict), and
// the judge checks of the statistics core (shared/stats/judge-fn.ts). The rules judge builds its verdicts itself.
// Type names in the detail are JavaScript's, as the judges are written in it.

type Obj = Record<string, unknown>;

/** What a judge's answer alone can give; error, timeout and crashed are decided by whoever called it. */
export type AnswerStatus = 'ok' | 'missing_reward' | 'invalid_result';

export interface NormalizedVerdict {
  /** null whenever the judge gave no usable reward; 0 or 1 exactly, or the judge's own number in between. */
  reward: number | null;
  status: AnswerStatus;
  reason?: string;
  /** The judge's other keys (its nested judge_meta flattened over them), or the failure's detail. */
  meta?: Obj;
  /** The judge's markers, checked to be {name: finite number}; they also stay in meta, as in the SDK. */
  markers?: Record<string, number>;
}

/** A plain object: Object.prototype or no prototype. Class instances, arrays and Maps are not verdicts. */
function isPlainObject(value: unknown): value is Obj {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Only the judge's own keys count: a reward inherited from a polluted prototype is no reward. */
const has = (object: Obj, key: string): boolean => Object.hasOwn(object, key) && object[key] !== undefined;

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'object') {
    const name = (Object.getPrototypeOf(value) as { constructor?: { name?: unknown } } | null)?.constructor?.name;
    return typeof name === 'string' && name !== 'Object' ? `object (${name})` : 'object';
  }
  return typeof value;
}

function invalid(meta: Obj): NormalizedVerdict {
  return { reward: null, status: 'invalid_result', meta };
}

/** Checks that markers is {name: finite number}; returns the problem, or null. */
function markersProblem(markers: unknown): string | null {
  if (!isPlainObject(markers)) return `markers must be an object of {name: number}, got ${typeName(markers)}`;
  for (const [name, value] of Object.entries(markers)) {
    if (typeof value !== 'number' || !Number.isFinite(value)) return `markers.${name} must be a number, got ${typeName(value)}`;
  }
  return null;
}

/** Keeps a non-finite number readable once the detail is JSON (where NaN and Infinity become null). */
const shown = (value: number): number | string => (Number.isFinite(value) ? value : String(value));

/**
 * `scale` = [lo, hi] (a Likert judge, sdk-semantics §5.1): the judge gives a rating on lo..hi, as a number or a dict's
 * `rating`, `score` or `reward` (the first of them present, in that order; present but null is no rating:
 * missing_reward), mapped to (v - lo) / (hi - lo) and rounded to 6 places; the rating and the scale are kept in meta,
 * the reason even on a failure. A boolean is no rating there. An unusable reward keeps the dict's reason, as the SDK does. Without a scale a reward must lie in [0, 1] (a dict's
 * `reward`, else `score`), and a boolean is 0 or 1. `hi <= lo` throws: that is the caller's mistake.
 */
export function normalizeVerdict(raw: unknown, scale?: readonly [number, number]): NormalizedVerdict {
  if (scale && !(scale[1] > scale[0])) throw new Error(`a judge scale needs hi > lo (got [${scale.join(', ')}])`);
  let value: unknown = raw;
  let reason: string | undefined;
  let meta: Obj = {};
  let markers: Record<string, number> | undefined;
  if (isPlainObject(raw)) {
    const key = (scale ? ['rating', 'score', 'reward'] : ['reward', 'score']).find((candidate) => has(raw, candidate));
    // The SDK keeps a dict's reason when its reward is unusable (and, on a scale, when it has none).
    const reasonOnFailure = has(raw, 'reason') && raw.reason !== null && raw.reason !== '' ? { reason: String(raw.reason) } : {};
    if (!key || (scale && raw[key] === null)) return { reward: null, status: 'missing_reward', meta: { returned_keys: Object.keys(raw).sort() }, ...(scale ? reasonOnFailure : {}) };
    value = raw[key];
    if (scale ? typeof value !== 'number' : typeof value !== 'number' && typeof value !== 'boolean') return { ...invalid({ reward_type: typeName(value) }), ...reasonOnFailure };
    for (const [k, v] of Object.entries(raw)) if (k !== 'reward' && k !== 'score' && k !== 'reason' && k !== 'judge_meta') meta[k] = v;
    if (Object.hasOwn(raw, 'judge_meta') && isPlainObject(raw.judge_meta)) Object.assign(meta, raw.judge_meta);
    if (scale) delete meta.rating;
    if (has(raw, 'reason') && raw.reason !== null && raw.reason !== '') reason = String(raw.reason);
    if (has(raw, 'markers')) {
      const problem = markersProblem(raw.markers);
      if (problem) return invalid({ markers_invalid: problem });
      markers = raw.markers as Record<string, number>;
    }
  }
  if (scale && typeof value !== 'number') return invalid({ reward_type: typeName(value) });
  if (typeof value === 'boolean') value = value ? 1 : 0;
  if (typeof value !== 'number') return invalid({ returned_type: typeName(value) });
  let reward: number;
  if (scale) {
    const [lo, hi] = scale;
    if (!(value >= lo && value <= hi)) return { ...invalid({ rating_out_of_scale: shown(value), scale: [lo, hi] }), ...(reason !== undefined ? { reason } : {}) };
    const mapped = (value - lo) / (hi - lo);
    reward = mapped === 0 || mapped === 1 ? mapped : Math.round(mapped * 1e6) / 1e6;
    meta = { ...meta, rating: value, scale: [lo, hi] };
  } else {
    if (!(value >= 0 && value <= 1)) return { ...invalid({ reward_out_of_range: shown(value) }), ...(reason !== undefined ? { reason } : {}) };
    reward = value === 0 ? 0 : value; // -0 is 0
  }
  const verdict: NormalizedVerdict = { reward, status: 'ok' };
  if (reason !== undefined) verdict.reason = reason;
  if (Object.keys(meta).length > 0) verdict.meta = meta;
  if (markers) verdict.markers = markers;
  return verdict;
}
