// The grade domain: grade a dataset (or a run) with a judge into a new 'graded' dataset, as a job. grade.start
// loads and checks the judge first (a bad judge is refused, nothing written) and answers with the job's id, which
// is the new dataset's id; grade.progress follows it; grade.wait resolves with the summary; grade.cancel stops it.
import { z } from '../schema/zod';
import { judgeSettings } from '../schema/run-settings';
import { method } from './define';

export const judgeStatusCounts = z.object({
  ok: z.number().int(),
  missing_reward: z.number().int(),
  invalid_result: z.number().int(),
  error: z.number().int(),
  timeout: z.number().int(),
  crashed: z.number().int(),
});
export type JudgeStatusCounts = z.infer<typeof judgeStatusCounts>;

/**
 * The trust check every grade ends with (judge_trust over the graded rows that carry gold), as stamped on each
 * graded row's judge_meta.trust. `verdict` is the desk's plain word; `line` says it, naming the floor.
 */
export const gradeTrust = z.object({
  ok: z.boolean(),
  verdict: z.enum(['trusted', 'not measured', 'inconclusive', 'fails']),
  line: z.string(),
  /** Graded rows with a gold label, and those with both a gold label and a judge reward. */
  n_gold: z.number().int(),
  n_labeled: z.number().int(),
  gold_kind: z.string().nullable(),
  agreement: z.number().nullable(),
  ci95: z.tuple([z.number(), z.number()]).nullable(),
  kappa: z.number().nullable(),
  floors: z.object({ min_agreement: z.number(), min_kappa: z.number() }),
  warnings: z.array(z.string()),
});
export type GradeTrust = z.infer<typeof gradeTrust>;

export const gradeSummary = z.object({
  /** The graded dataset (also the grade job's id). */
  dataset_id: z.string(),
  parent_id: z.string(),
  scoring_run_id: z.string(),
  judge_name: z.string(),
  rows: z.number().int(),
  /** Rows the judge scored (judge_status ok). */
  graded: z.number().int(),
  judge_status_counts: judgeStatusCounts,
  mean_reward: z.number().nullable(),
  /** Rows were there, and the judge scored none of them. */
  all_failed: z.boolean(),
  first_problem: z.string().nullable(),
  /** The trust check (null on a grade finished before grades carried one). */
  trust: gradeTrust.nullable(),
});
export type GradeSummary = z.infer<typeof gradeSummary>;

const gradeId = z.string().min(1, 'a grade id (the graded dataset id) is required');

export const gradeStartInput = z.object({
  dataset_id: z.string().min(1, 'the dataset or run to grade'),
  judge: judgeSettings,
  name: z.string().min(1).max(200).optional(),
  /** Rows judged at once: worker threads for a module judge, requests in flight for an LLM judge. */
  concurrency: z.number().int().min(1).max(256).optional(),
});

export const gradeApi = {
  'grade.start': method(
    gradeStartInput,
    z.object({ grade_id: z.string(), dataset_id: z.string(), parent_id: z.string(), judge_name: z.string(), total: z.number().int() }),
    'Grade a dataset with a judge into a new graded dataset (follow grade.progress, then grade.wait)',
  ),
  'grade.wait': method(z.object({ grade_id: gradeId }), gradeSummary, 'Wait for a grade job and get its summary (a finished one answers at once)'),
  'grade.cancel': method(z.object({ grade_id: gradeId }), z.object({ cancelled: z.boolean() }), 'Stop a grade job; the graded dataset is marked cancelled'),
} as const;

export const gradeStatus = z.enum(['grading', 'done', 'failed', 'cancelled']);

export const gradeProgress = z.object({
  grade_id: z.string(),
  dataset_id: z.string(),
  parent_id: z.string(),
  status: gradeStatus,
  done: z.number().int(),
  total: z.number().int(),
  judge_status_counts: judgeStatusCounts,
  error: z.string().nullable(),
});
export type GradeProgress = z.infer<typeof gradeProgress>;

export const gradeEvents = {
  /** After every page of rows (256) and once with the final status. */
  'grade.progress': gradeProgress,
} as const;
