// A judge's answer as a row's verdict: the one normaliser (shared/schema/judge-verdict.ts, sdk-semantics §5.1) decides
// the reward and the status; this names the judge and shapes the keys a row carries. Module judges (after their
// process reduced the value to plain data) and LLM judges come through here.
import { normalizeVerdict } from '../../shared/schema/judge-verdict';
import type { JudgeStatus, JudgeVerdict } from './judge-types';

export { errorText } from './error-text';

export function failed(judgeName: string, status: Exclude<JudgeStatus, 'ok'>, meta: Record<string, unknown>): JudgeVerdict {
  return { reward: null, judge_status: status, judge_name: judgeName, judge_meta: meta };
}

/** `scale` = [lo, hi] maps a Likert rating to 0..1; `hi <= lo` throws. */
export function normalizeJudgeResult(result: unknown, judgeName: string, scale?: readonly [number, number]): JudgeVerdict {
  const normalized = normalizeVerdict(result, scale);
  const verdict: JudgeVerdict = { reward: normalized.reward, judge_status: normalized.status, judge_name: judgeName };
  if (normalized.reason !== undefined) verdict.reason = normalized.reason;
  if (normalized.markers) verdict.markers = normalized.markers;
  if (normalized.meta) verdict.judge_meta = normalized.meta;
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
