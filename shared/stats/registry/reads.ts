// The row fields the statistics read, named once for those that share them (define.ts says how `reads` is used).
// Each list names what the code reads, including the helpers it calls: task_key (keys.ts), the readers
// (readers.ts), run_config (run-config.ts) and delta_report's side (delta-side.ts).
import type { FoldInput } from './define';

/** task_key: the first truthy of scenario_id, task_id, prompt. */
export const TASK_KEY_READS = ['scenario_id', 'task_id', 'prompt'] as const;

/** A task's 0/1 labels and graded rewards: task_key, then reward, else qwen_reward. */
export const TASK_LABEL_READS = [...TASK_KEY_READS, 'reward', 'qwen_reward'] as const;

/** pass_at with its run config: the labels, judge statuses and reasons, the run's facts and each row's reply. */
export const PASS_AT_READS = [
  ...TASK_LABEL_READS, 'judge_status', 'reason', 'sampling', 'policy_version', 'judge_meta', 'lineage', 'user_model', 'writer_model',
  'finish_reason', 'final_text', 'messages',
] as const;

/**
 * Of those, the ones pass_at reads for few rows (RowFold.rarely): a reply's messages where final_text is blank
 * (run-config.ts replyOf), the reason of the first failed judge.
 */
export const PASS_AT_RARELY = ['messages', 'reason'] as const;

/** A metric per task (compare_runs, eval_variance): pass_at_1 reads reward, `marker:NAME` the row's markers. */
export const METRIC_READS = [...TASK_KEY_READS, 'reward', 'markers'] as const;

/**
 * delta_report (and the compare report): pass_at's fields, the markers, the re-run ids (eval_run, at the top or in
 * lineage), the slice keys, and the field `by` names (a grouping callable reads what it likes: whole rows).
 */
export function deltaReads(input: FoldInput): readonly string[] | 'row' {
  const by = input.params.by;
  if (typeof by === 'function') return 'row';
  return [...PASS_AT_READS, 'markers', 'eval_run', 'category', 'slice', ...(typeof by === 'string' ? [by] : [])];
}

/** eval_variance: the metric per task, and the run id (`by` at the top or in lineage, else lineage's own). */
export function evalVarianceReads(input: FoldInput): readonly string[] {
  const by = input.params.by;
  return [...METRIC_READS, 'lineage', ...(typeof by === 'string' && by !== '' ? [by] : [])];
}

/** hack_scan: the ask, the reward field `reward` names (default reward), the reply and trajectory, markers. */
export function hackScanReads(input: FoldInput): readonly string[] {
  const reward = input.params.reward;
  return [
    'prompt', 'final_text', 'messages', 'opener', 'steps', 'tool_trace', 'reason', 'grader_reason', 'logprob', 'n_tokens', 'markers',
    typeof reward === 'string' && reward !== '' ? reward : 'reward',
  ];
}
