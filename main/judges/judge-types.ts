// The contract between graders (rollout loop, `grade`, statistics) and every judge (JS module, rules, LLM).

export type JudgeStatus = 'ok' | 'missing_reward' | 'invalid_result' | 'error' | 'timeout';

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
  judge(row: Record<string, unknown>, signal?: AbortSignal): Promise<JudgeVerdict>;
  close?(): Promise<void>;
}
