// Messages between the engine and a module judge's process (main/judges/judge-child.ts). That process runs user
// code, so the engine checks every message it gets back (isRowOutcome) and trusts nothing else in it.
import type { JudgeStatus } from './judge-types';

export type FailedStatus = Exclude<JudgeStatus, 'ok'>;

/** One row's outcome: the judge's own return value (a primitive, or a copy of a plain object's own keys), or why there is none. */
export type RowOutcome = { value: unknown } | { status: FailedStatus; meta: Record<string, unknown> };

/**
 * `rows`: each row's JSON text, so the judge sees each row exactly as it is stored (what `grade` gives it later),
 * a row that cannot be written as JSON is charged alone (judge-pool.ts), and the judge's process parses text
 * (about half the cost of deserialising a structured clone). An array of texts rather than one array text: the
 * engine then copies each row once, into the message, instead of first into one large string.
 */
export type ToChild = { type: 'chunk'; id: number; rows: string[] };

export type FromChild =
  | { type: 'ready'; declared_name: unknown; fn_name: string; scale: unknown }
  | { type: 'load_error'; message: string; syntax: boolean; where: string | null }
  /**
   * Outcomes for rows [from, from + outcomes.length) of the chunk; retire: the isolate is spoilt, start a fresh one.
   * ms, on a chunk's last results: how long the chunk took (used only to size the next chunks).
   */
  | { type: 'results'; id: number; from: number; outcomes: RowOutcome[]; retire?: boolean; ms?: number };

const FAILED: ReadonlySet<string> = new Set(['missing_reward', 'invalid_result', 'error', 'timeout', 'crashed']);

export function isRowOutcome(value: unknown): value is RowOutcome {
  if (typeof value !== 'object' || value === null) return false;
  if (Object.hasOwn(value, 'value')) return true;
  const { status, meta } = value as { status?: unknown; meta?: unknown };
  return typeof status === 'string' && FAILED.has(status) && typeof meta === 'object' && meta !== null && !Array.isArray(meta);
}
