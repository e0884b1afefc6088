// The contract between graders (rollout loop, `grade`, statistics) and every judge (JS module, rules, LLM).

/**
 * ok: a reward. missing_reward / invalid_result: the judge answered, but not with a usable reward. error: it threw.
 * timeout: no answer within the per-row deadline. crashed: the judge's isolate died (process.exit, out of memory,
 * an uncaught error or unhandled rejection) while the row was with it.
 */
export type JudgeStatus = 'ok' | 'missing_reward' | 'invalid_result' | 'error' | 'timeout' | 'crashed';

export const JUDGE_STATUSES: readonly JudgeStatus[] = ['ok', 'missing_reward', 'invalid_result', 'error', 'timeout', 'crashed'];

/** A zero count for every status, in a fixed order (summaries print them in this order). */
export function emptyStatusCounts(): Record<JudgeStatus, number> {
  return { ok: 0, missing_reward: 0, invalid_result: 0, error: 0, timeout: 0, crashed: 0 };
}

/** What a judge decided about one row. reward is null whenever the judge did not produce one: never invented. */
export interface JudgeVerdict {
  reward: number | null;
  judge_status: JudgeStatus;
  judge_name: string;
  reason?: string;
  markers?: Record<string, number>;
  judge_meta?: Record<string, unknown>;
}

export interface RowJudge {
  readonly name: string;
  /** One row. Never rejects for the judge's own faults (they become verdicts); rejects only when `signal` aborts. */
  judge(row: Record<string, unknown>, signal?: AbortSignal): Promise<JudgeVerdict>;
  /** Many rows, one verdict each in the same order: the fast path (one message to an isolated judge per batch). */
  judgeBatch(rows: Array<Record<string, unknown>>, signal?: AbortSignal): Promise<JudgeVerdict[]>;
  /**
   * The same, for rows given as their JSON text (each exactly JSON.stringify of its row): for a judge that would
   * serialise the rows itself (a module judge sends them to its processes as JSON), from a caller that has the text
   * already (a graded run makes each row's text once, for the judge and for storage: verdict-json.ts).
   */
  judgeJson?(texts: string[], signal?: AbortSignal): Promise<JudgeVerdict[]>;
  /** Ends the judge's isolate or agent; safe to call twice. */
  close(): Promise<void>;
}
