// Training export: a dataset's graded rows as SFT or preference files a trainer loads (sdk-semantics §8.3), with the
// selection before it (decontaminate, select_for_sft / select_for_rl) as one pipeline with a report at each stage.
import { z } from '../schema/zod';
import { method } from './define';

const datasetId = z.string().min(1, 'a dataset id is required');

/** How rows are chosen before export: all of them, an SFT rejection-sampling rule, or whole RL groups. */
export const TRAINING_SELECTIONS = ['all', 'top_per_prompt', 'random_per_prompt', 'top_k_overall', 'random_k_overall', 'rl'] as const;
export type TrainingSelection = (typeof TRAINING_SELECTIONS)[number];

export const trainingSettings = z.object({
  select: z.enum(TRAINING_SELECTIONS).default('all'),
  /** SFT rules: the reward a demonstration needs (SDK default 1.0); with select "all": keep rows whose reward reaches it. */
  min_reward: z.number().finite().nullable().default(null),
  /** Rows to keep (SDK default 1000); null keeps the SDK's default. */
  target: z.number().int().min(1).max(10_000_000).nullable().default(null),
  /** top_k_overall / random_k_overall: how many (default: target). */
  k: z.number().int().min(1).nullable().default(null),
  seed: z.number().int().default(0),
  /** select "rl": the difficulty band of pass rates. */
  band: z.tuple([z.number().min(0).max(1), z.number().min(0).max(1)]).default([0.2, 0.8]),
  /** Eval datasets to decontaminate against (same task id, verbatim prompt, or 8-gram overlap). */
  decontaminate_against: z.array(datasetId).max(50).default([]),
  format: z.enum(['openai', 'trl']).default('openai'),
  mask_mode: z.enum(['assistant', 'final']).default('assistant'),
  unroll: z.boolean().default(false),
  max_tool_output_chars: z.number().int().min(0).max(100_000_000).nullable().default(null),
  strip_think: z.boolean().default(true),
  /** The agent's system prompt; null: the run's own, when the dataset comes from a run whose tasks share one. */
  system_prompt: z.string().max(1_000_000).nullable().default(null),
  /** Tool schemas; null: the run's own, when its tasks share one set. */
  tools: z.array(z.record(z.string(), z.unknown())).max(1000).nullable().default(null),
  /** Refuse rows whose tool calls do not round-trip or whose reply quotes its privileged block (the SDK's validate). */
  validate: z.boolean().default(true),
});
export type TrainingSettings = z.infer<typeof trainingSettings>;
export type TrainingSettingsInput = z.input<typeof trainingSettings>;

/** One stage of the pipeline and what it did to the row count; `report` is the SDK's report of that stage. */
export const trainingStage = z.object({
  stage: z.enum(['read', 'decontaminate', 'min_reward', 'select', 'export']),
  rows_in: z.number().int(),
  rows_out: z.number().int(),
  report: z.record(z.string(), z.unknown()).nullable(),
});
export type TrainingStage = z.infer<typeof trainingStage>;

export const trainingCounts = z.object({
  rows_in: z.number().int(),
  rows_kept: z.number().int(),
  contaminated: z.number().int(),
  below_min_reward: z.number().int(),
  /** Rows each selection rule dropped, by the SDK's names (n_not_pass, n_junk, privileged_leaks_dropped, gates..., unanimous_groups_dropped ...). */
  dropped_by_rule: z.record(z.string(), z.number()),
  rows_written: z.number().int(),
  tool_output_truncated: z.number().int(),
  tool_output_chars_cut: z.number().int(),
  /** chars / 4: a rough count of the tokens the cut spares a trainer's context. */
  tool_output_tokens_cut: z.number().int(),
});
export type TrainingCounts = z.infer<typeof trainingCounts>;

export const trainingResult = z.object({
  job_id: z.string(),
  counts: trainingCounts,
  stages: z.array(trainingStage),
  /** export_dataset's report (the SDK's keys), with the stages' reports under `selection` and `decontaminate`. */
  report: z.record(z.string(), z.unknown()),
  /** Up to three exported rows, each as its line of the file. */
  samples: z.array(z.string()),
  path: z.string().nullable(),
  /** In a browser: fetch GET /download/<id>?token=... once; the file is removed after. */
  download_id: z.string().nullable(),
  file_name: z.string(),
  bytes: z.number().int(),
  /** What the export took its system prompt and tools from. */
  system_prompt_from: z.enum(['settings', 'run', 'none']),
});
export type TrainingResult = z.infer<typeof trainingResult>;

const destination = {
  /** A file the engine writes (desktop app, CLI): PATH is written atomically, never left half-written. */
  path: z.string().min(1).max(4096).optional(),
  /** Write to a temporary file served once as a download (`serve` in a browser). */
  download: z.boolean().default(false),
  /** Names the job for training.cancel and the training.progress events. */
  job_id: z.string().min(1).max(100).optional(),
};

export const trainingApi = {
  'training.defaults': method(
    z.object({ dataset_id: datasetId }),
    z.object({ system_prompt: z.string().nullable(), tools: z.array(z.record(z.string(), z.unknown())).nullable(), from_run: z.string().nullable(), note: z.string().nullable() }),
    "The system prompt and tools an export of this dataset takes by default: its run's, when its tasks share them",
  ),
  'training.preview': method(
    z.object({ dataset_id: datasetId, settings: trainingSettings.default(trainingSettings.parse({})), job_id: destination.job_id }),
    trainingResult,
    'The whole pipeline on the dataset without writing a file: the counts of each stage and three exported samples',
  ),
  'training.export': method(
    z
      .object({ dataset_id: datasetId, settings: trainingSettings.default(trainingSettings.parse({})), ...destination })
      .refine((input) => (input.path !== undefined) !== input.download, { message: 'give a path to write, or download: true, one of them' }),
    trainingResult,
    'Write the training file (SFT rows, OpenAI or TRL shape) streamed to disk; an empty selection or a bad row writes nothing',
  ),
  'training.exportPreference': method(
    z
      .object({
        dataset_id: datasetId,
        format: z.enum(['openai', 'trl']).default('openai'),
        system_prompt: z.string().max(1_000_000).nullable().default(null),
        validate: z.boolean().default(true),
        ...destination,
      })
      .refine((input) => (input.path !== undefined) !== input.download, { message: 'give a path to write, or download: true, one of them' }),
    z.object({
      job_id: z.string(),
      report: z.record(z.string(), z.unknown()),
      pairs_report: z.record(z.string(), z.unknown()),
      path: z.string().nullable(),
      download_id: z.string().nullable(),
      file_name: z.string(),
      bytes: z.number().int(),
    }),
    'Build same-prompt chosen/rejected pairs (build_preference_pairs) and write them as DPO rows (export_preference)',
  ),
  'training.cancel': method(z.object({ job_id: z.string().min(1) }), z.object({ cancelled: z.boolean() }), 'Stop a training preview or export; a cancelled export leaves no file'),
} as const;

export const trainingEvents = {
  'training.progress': z.object({ job_id: z.string(), stage: z.enum(['reading', 'selecting', 'writing']), done: z.number().int(), total: z.number().int() }),
} as const;
