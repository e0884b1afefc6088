// The judge contract and the run_judge subset the judge checks use (stats-semantics §13.5, sdk-semantics §5.1-5.2).
import { normalizeVerdict } from '../schema/judge-verdict';

type Row = Record<string, unknown>;

/** A judge: takes a row, returns a reward in 0..1, a boolean, or `{reward | score, reason?, markers?, ...}`. */
export type JudgeFn = (row: Row) => Promise<unknown>;

/** What the checks accept: an async judge, or a plain function that answers at once. */
export type AnyJudge = JudgeFn | ((row: Row) => unknown);

export type JudgeStatus = 'ok' | 'missing_reward' | 'invalid_result' | 'error' | 'timeout';

/** One verdict: the normaliser's (shared/schema/judge-verdict.ts), or the call's own error or timeout. */
export interface Verdict {
  reward: number | null;
  status: JudgeStatus;
  reason?: string;
  meta?: Row;
  markers?: Row;
}

function isObj(value: unknown): value is Row {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function errorVerdict(error: unknown): Verdict {
  const name = error instanceof Error ? error.name : 'Error';
  const message = error instanceof Error ? error.message : String(error);
  return { reward: null, status: 'error', meta: { error: `${name}: ${message}` } };
}

const TIMED_OUT = Symbol('timed out');

function withTimeout(p: PromiseLike<unknown>, ms: number): Promise<unknown> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<typeof TIMED_OUT>((resolve) => { timer = setTimeout(() => resolve(TIMED_OUT), ms); });
  return Promise.race([Promise.resolve(p), limit]).finally(() => clearTimeout(timer));
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && (typeof value === 'object' || typeof value === 'function') && typeof (value as { then?: unknown }).then === 'function';
}

/**
 * Calls the judge on every row, at most `concurrency` calls in flight, verdicts in row order.
 * A judge that answers synchronously is not awaited, so a program judge costs one function call per row.
 * Each call gets a shallow copy, so a judge that writes on its row cannot change the caller's rows.
 */
export async function judgeVerdicts(rows: readonly Row[], judge: AnyJudge, concurrency = 8, timeoutS?: number | null): Promise<Verdict[]> {
  const out: Verdict[] = new Array(rows.length);
  const width = Math.max(1, Math.min(Math.floor(Number(concurrency)) || 1, rows.length));
  // As in the SDK, a timeout only applies when the pool runs (more than one call in flight).
  const limitMs = timeoutS && timeoutS > 0 && width > 1 ? timeoutS * 1000 : 0;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < rows.length) {
      const i = next++;
      try {
        let raw = (judge as (row: Row) => unknown)({ ...rows[i] });
        if (isThenable(raw)) {
          if (limitMs) {
            const res = await withTimeout(raw, limitMs);
            if (res === TIMED_OUT) {
              out[i] = { reward: null, status: 'timeout', meta: { timeout_s: timeoutS } };
              continue;
            }
            raw = res;
          } else raw = await raw;
        }
        out[i] = normalizeVerdict(raw);
      } catch (error) {
        out[i] = errorVerdict(error);
      }
    }
  };
  const workers: Promise<void>[] = [];
  for (let w = 0; w < width; w++) workers.push(worker());
  await Promise.all(workers);
  return out;
}

/** The name run_judge stamps on rows: `judge_name`, else the function's name, else "judge" (anonymous -> "lambda_judge"). */
export function stampName(judge: unknown, judgeName?: string | null): string {
  if (judgeName) return judgeName;
  if (typeof judge === 'function') return judge.name ? judge.name : 'lambda_judge';
  if (isObj(judge) && typeof judge.name === 'string' && judge.name) return judge.name;
  return 'judge';
}

/** run_judge subset: scored shallow copies carrying reward, reason, judge_status, judge_name, judge_meta, failure_class, markers. */
export async function runJudge(
  rows: readonly Row[],
  judge: AnyJudge,
  options: { concurrency?: number; judge_name?: string | null; timeout_s?: number | null } = {},
): Promise<Row[]> {
  const verdicts = await judgeVerdicts(rows, judge, options.concurrency ?? 8, options.timeout_s);
  const name = stampName(judge, options.judge_name);
  return rows.map((row, i) => {
    const v = verdicts[i];
    const scored: Row = { ...row, reward: v.reward };
    if (v.reason) scored.reason = v.reason;
    scored.judge_status = v.status;
    scored.judge_name = name;
    if (v.meta) {
      scored.judge_meta = v.meta;
      if (v.meta.failure_class !== undefined) scored.failure_class = v.meta.failure_class;
    }
    if (v.markers) scored.markers = { ...(isObj(row.markers) ? row.markers : {}), ...v.markers };
    return scored;
  });
}
