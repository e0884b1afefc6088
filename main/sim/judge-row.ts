// Grading one landed row in the loop (sdk-semantics §3.8): a judge failure leaves reward null, never invented.
import { applyVerdict } from '../judges/apply-verdict';
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

export async function judgeRow(judge: RowJudge, row: Obj, signal?: AbortSignal): Promise<JudgeVerdict> {
  if (row.finish_reason === 'length') return lengthCapVerdict();
  try {
    return await judge.judge(row, signal);
  } catch (error) {
    return { reward: null, judge_status: 'error', judge_name: judge.name, reason: `the judge failed: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** In-loop grading (§3.8): the verdict and lineage go onto the row, judge_meta does not. */
export function gradeInLoop(row: Obj, verdict: JudgeVerdict, scoringRunId: string, ordinal: number): Obj {
  return applyVerdict(row, verdict, { scoringRunId, source: 'grade', index: ordinal, keepMeta: false });
}
