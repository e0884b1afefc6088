// Grading landed rows in the loop (sdk-semantics §3.8): a judge failure leaves reward null, never invented.
// Module judges gather the loop's row-by-row calls into batches themselves (main/judges/micro-batch.ts);
// judgeRows is the same for a caller that already holds a batch.
import { applyVerdict } from '../judges/apply-verdict';
import { errorText } from '../judges/error-text';
import type { JudgeVerdict, RowJudge } from '../judges/judge-types';

type Obj = Record<string, unknown>;

/** A row cut by the length cap is not judged (§3.5). */
export function lengthCapVerdict(): JudgeVerdict {
  return {
    reward: null,
    judge_status: 'missing_reward',
    judge_name: 'length_cap',
    reason: 'truncated: hit the length cap, not judged',
    judge_meta: { scorer_kind: 'rule' },
  };
}

function judgeFailed(judge: RowJudge, error: unknown): JudgeVerdict {
  return { reward: null, judge_status: 'error', judge_name: judge.name, reason: `the judge failed: ${errorText(error)}`, judge_meta: { error: errorText(error) } };
}

export async function judgeRow(judge: RowJudge, row: Obj, signal?: AbortSignal): Promise<JudgeVerdict> {
  if (row.finish_reason === 'length') return lengthCapVerdict();
  try {
    return await judge.judge(row, signal);
  } catch (error) {
    if (signal?.aborted) throw error;
    return judgeFailed(judge, error);
  }
}

/** Verdicts for many rows in one batch (length-cap rows are not sent), in the rows' order. */
export async function judgeRows(judge: RowJudge, rows: Obj[], signal?: AbortSignal): Promise<JudgeVerdict[]> {
  const sent = rows.filter((row) => row.finish_reason !== 'length');
  let verdicts: JudgeVerdict[];
  try {
    verdicts = await judge.judgeBatch(sent, signal);
  } catch (error) {
    if (signal?.aborted) throw error;
    verdicts = sent.map(() => judgeFailed(judge, error));
  }
  let next = 0;
  return rows.map((row) => (row.finish_reason === 'length' ? lengthCapVerdict() : verdicts[next++]));
}

/**
 * In-loop grading (§3.8): the verdict and lineage go onto the row. judge_meta is not copied for a scored row,
 * as the SDK does; for a row left without a reward it is, since it holds the reason (timeout_s, the error).
 */
export function gradeInLoop(row: Obj, verdict: JudgeVerdict, scoringRunId: string, ordinal: number): Obj {
  return applyVerdict(row, verdict, { scoringRunId, source: 'grade', index: ordinal, keepMeta: verdict.judge_status !== 'ok' });
}
