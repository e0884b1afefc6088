// The stats domain of the typed API: every statistic of stats-semantics.md, run in a worker, cancellable.
import { z } from 'zod';
import { method } from './define';

const datasetId = z.string().min(1, 'a dataset id is required (a run id is a dataset id)');
/** The caller may pick the job id up front, so it can cancel a job that has not answered yet. */
const jobId = z.string().min(1).max(100).optional();
const unit = z.number().gt(0).lt(1);
const report = z.record(z.string(), z.unknown());
const jobResult = z.object({ job_id: z.string(), report });

export const statsJobState = z.enum(['queued', 'running', 'done', 'failed', 'cancelled']);
export type StatsJobState = z.infer<typeof statsJobState>;

export const passAtInput = z.object({
  dataset_id: datasetId,
  job_id: jobId,
  k: z.number().int().min(1).nullable().optional(),
  min_k: z.number().int().optional(),
  unanimous_short: z.boolean().optional(),
  /** Also return each task's pass rate (large on big runs; off by default). */
  per_task: z.boolean().optional(),
});

export const reliabilityPoint = z.object({
  k: z.number().int(),
  pass_pow_k: z.number().nullable(),
  pass_at_k: z.number().nullable(),
  pass_pow_k_ci95: z.array(z.number()).nullable(),
  pass_at_k_ci95: z.array(z.number()).nullable(),
  n_groups_at_k: z.number().int(),
});
export type ReliabilityPoint = z.infer<typeof reliabilityPoint>;

export const curriculumInput = z.object({
  dataset_id: datasetId,
  job_id: jobId,
  solved: z.number().optional(),
  floor: z.number().optional(),
  band: z.tuple([z.number(), z.number()]).optional(),
  tiers: z.number().int().optional(),
  min_rollouts: z.number().int().optional(),
  /** For screens: cut each task list (tiers, schedule, retired, ...) to this many entries; counts stay whole. */
  list_limit: z.number().int().min(0).optional(),
});

export const judgeTrustInput = z.object({
  dataset_id: datasetId,
  job_id: jobId,
  /** A program judge: a `.mjs` module path or a `.json` rules file, loaded inside the worker. */
  judge: z.string().min(1).optional(),
  rubric_file: z.string().optional(),
  gold: z.string().optional(),
  sample: z.number().int().min(1).optional(),
  seed: z.number().int().optional(),
  concurrency: z.number().int().min(1).optional(),
  probes: z.union([z.literal('all'), z.array(z.string()), z.null()]).optional(),
  rubric: z.string().optional(),
  min_agreement: z.number().optional(),
  min_kappa: z.number().optional(),
  allow_model_gold: z.boolean().optional(),
  length_gap_flag: z.number().optional(),
  flip_flag: z.number().optional(),
  max_skipped_share: z.number().optional(),
  judge_name: z.string().optional(),
  /**
   * Read only the rows that carry a gold (the labeling desk's live panel: a few rows re-read after each label, not
   * the whole dataset). The report is judge_trust over those rows: the same agreement, kappa, halves, length bias
   * and verdict; n_rows and agreement.n_skipped count the gold rows only. Gold is read from gold_reward.
   */
  labeled_only: z.boolean().optional(),
});

export const compareInput = z.object({
  a: datasetId,
  b: datasetId,
  job_id: jobId,
  metric: z.string().optional(),
  n_boot: z.number().int().min(1).optional(),
  seed: z.number().int().optional(),
  min_paired: z.number().int().optional(),
  level: z.number().optional(),
});

export const deltaInput = z.object({
  before: datasetId,
  after: datasetId,
  job_id: jobId,
  target: z.string().nullable().optional(),
  must_not_regress: z.array(z.string()).optional(),
  lower_is_better: z.union([z.array(z.string()), z.record(z.string(), z.boolean())]).nullable().optional(),
  markers: z.array(z.string()).nullable().optional(),
  by: z.union([z.string(), z.boolean(), z.null()]).optional(),
  run_std: z.union([z.number(), z.record(z.string(), z.number().nullable()), z.null()]).optional(),
  run_std_runs: z.number().int().nullable().optional(),
  proxy: z.string().nullable().optional(),
  n_boot: z.number().int().min(1).optional(),
  seed: z.number().int().optional(),
  balance_rollouts: z.boolean().optional(),
  alpha: z.number().optional(),
  power: z.number().optional(),
  ceiling_pass_rate: z.number().optional(),
  answered_gap_points: z.number().optional(),
  answered_alpha: z.number().optional(),
});

export const evalVarianceInput = z.object({
  /** One id: its rows are split by run id. Several: each is one run. */
  dataset_ids: z.array(datasetId).min(1, 'name at least one dataset'),
  job_id: jobId,
  metric: z.string().optional(),
  by: z.string().nullable().optional(),
});

export const holdoutSizeInput = z.object({
  effect: unit,
  job_id: jobId,
  base: z.number().optional(),
  k: z.number().int().optional(),
  power: z.number().optional(),
  alpha: z.number().optional(),
  before: datasetId.optional(),
  after: datasetId.optional(),
  task_std: z.number().optional(),
  ceiling_pass_rate: z.number().optional(),
});

export const decontaminateInput = z.object({
  dataset_id: datasetId,
  /** The evaluation set(s) to check the rows against. */
  against: z.array(datasetId).min(1, 'name at least one evaluation dataset'),
  job_id: jobId,
  n: z.number().int().min(1).optional(),
  fields: z.array(z.string()).min(1).optional(),
  overlap: z.number().optional(),
});

export const statsApi = {
  'stats.passAt': method(
    passAtInput,
    jobResult.extend({ per_task: z.record(z.string(), z.number()).optional() }),
    'pass@1, pass^k and pass@k with intervals over tasks (spec 5)',
  ),
  'stats.reliability': method(
    z.object({ dataset_id: datasetId, job_id: jobId, max_k: z.number().int().min(1).max(64).optional() }),
    z.object({ job_id: z.string(), k_max: z.number().int(), points: z.array(reliabilityPoint) }),
    'pass^k and pass@k for k = 1..K with intervals, for the reliability plot',
  ),
  'stats.curriculum': method(
    curriculumInput,
    jobResult.extend({ tier_sizes: z.array(z.number().int()).optional() }),
    'Trainable tasks by tier, retired, not ready, the schedule (spec 6)',
  ),
  'stats.judgeTrust': method(judgeTrustInput, jobResult, 'Can the judge be trusted: agreement, halves, length bias, probes (spec 13)'),
  'stats.compare': method(compareInput, jobResult, 'Compare two runs per task, paired when possible (spec 7)'),
  'stats.delta': method(deltaInput, jobResult, 'Did the change move the target without regressing the guards (spec 8)'),
  'stats.evalVariance': method(evalVarianceInput, jobResult, 'Re-run variance of an eval and its noise band (spec 9)'),
  'stats.holdoutSize': method(holdoutSizeInput, jobResult, 'How many tasks a holdout needs to see an effect (spec 10)'),
  'stats.decontaminate': method(
    decontaminateInput,
    jobResult.extend({ kept_indices: z.array(z.number().int()) }),
    'Training rows that overlap the evaluation set (spec 11)',
  ),
  'stats.cancel': method(z.object({ job_id: z.string().min(1) }), z.object({ cancelled: z.boolean() }), 'Stop a statistics job'),
} as const;

export const statsEvents = {
  'stats.job': z.object({ job_id: z.string(), method: z.string(), state: statsJobState, message: z.string().optional() }),
} as const;
