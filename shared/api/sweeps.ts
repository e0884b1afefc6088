// The sweeps domain: variants (a system prompt and an agent each) run on one frozen task set with one k and one
// judge, ranked by the platform's HarnessSweep rules (platform-api.md §6); stored, followed live, resumable.
import { z } from '../schema/zod';
import { agentFromSpec } from '../schema/agent-spec';
import { agentSettings, judgeSettings, RUN_DEFAULTS } from '../schema/run-settings';
import { method } from './define';

/** A sweep's own defaults, once: the API, `while-desk sweep --help` and the app's new-sweep form read them here. */
export const SWEEP_DEFAULTS = {
  k: 4,
  /** Total scorings of the first variant (§6); 2 or more give a noise floor. */
  noise_runs: 2,
  behavior: 'policy',
} as const;

/** `cancelled`: stopped by sweeps.cancel; `interrupted`: its process stopped (closed, crashed, kill -9). Both resume. */
export const sweepStatus = z.enum(['running', 'done', 'failed', 'interrupted', 'cancelled']);
export type SweepStatus = z.infer<typeof sweepStatus>;

/** A variant's agent: settings, or the CLI spelling (`seeded`, `openai:M@URL`, `llama:F.gguf`) read as settings. */
const variantAgent = z.preprocess((value, ctx) => {
  if (typeof value !== 'string') return value;
  try {
    return agentFromSpec(value);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: error instanceof Error ? error.message : String(error) });
    return z.NEVER;
  }
}, agentSettings);

export const sweepVariant = z.object({
  /** `prompt@model`: at most 40 characters, unique in the sweep. Left out: `h-` + the harness fingerprint. */
  label: z.string().optional(),
  /** Replaces every task's system prompt for this arm; left out, each task keeps its own. */
  system_prompt: z.string().max(100_000).nullable().optional(),
  agent: variantAgent,
});
export type SweepVariantSettings = z.output<typeof sweepVariant>;

/** What a sweep was started with; stored with it so resume needs nothing else. */
export const sweepConfig = z.object({
  tasks_path: z.string().nullable(),
  tasks_sha256: z.string(),
  tasks_count: z.number().int(),
  variants: z.array(sweepVariant),
  /** The labels after the label rules (a missing label becomes h-<fingerprint>). */
  labels: z.array(z.string()),
  judge: judgeSettings,
  k: z.number().int(),
  noise_runs: z.number().int(),
  behavior: z.string(),
  concurrency: z.number().int(),
  max_turns: z.number().int(),
});
export type SweepConfig = z.infer<typeof sweepConfig>;

const score = z.tuple([z.number(), z.number(), z.number()]);

/** SweepReport.to_dict() (shared/platform/sweep-report.ts), plus the printed table as `text`. */
export const sweepReportSchema = z.object({
  behavior: z.string(),
  test_version: z.string(),
  n_asks: z.number().int(),
  k: z.number().int(),
  noise_floor: z.number().nullable(),
  run_std: z.number().nullable(),
  /** null with noise_runs <= 1: no re-run was scored, so no floor was measured. */
  noise_runs: z.number().int().nullable(),
  judge: z.record(z.string(), z.unknown()).nullable(),
  best: z.string().nullable(),
  unproven: z.boolean(),
  variants: z.array(
    z.object({
      label: z.string(),
      model: z.string().nullable(),
      harness: z.string(),
      run: z.string().nullable(),
      graded_rows: z.number().int(),
      scores: z.record(z.string(), score),
    }),
  ),
  text: z.string(),
});

/** One run of a sweep: arm i's scoring (rerun 0), or a noise re-run of the first arm (rerun 1 ..). */
export const sweepArm = z.object({
  arm: z.number().int(),
  rerun: z.number().int(),
  label: z.string(),
  run_id: z.string().nullable(),
  status: z.string(),
  rows: z.number().int(),
  expected_rows: z.number().int(),
});

export const sweepSummary = z.object({
  id: z.string(),
  name: z.string(),
  status: sweepStatus,
  variants: z.number().int(),
  rows: z.number().int(),
  expected_rows: z.number().int(),
  best: z.string().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  error: z.string().nullable(),
});
export type SweepSummary = z.infer<typeof sweepSummary>;

export const sweepDetail = sweepSummary.extend({
  config: sweepConfig,
  arms: z.array(sweepArm),
  /** The ranked report once every arm is scored; null before, or when an arm was refused (see error). */
  report: sweepReportSchema.nullable(),
});
export type SweepDetail = z.infer<typeof sweepDetail>;

export const sweepStartInput = z
  .object({
    tasks_path: z.string().min(1).optional(),
    tasks_text: z.string().max(64 * 1024 * 1024).optional(),
    variants: z.array(sweepVariant).min(1, 'a sweep needs at least one variant'),
    judge: judgeSettings,
    k: z.number().int().min(1).max(10_000).default(SWEEP_DEFAULTS.k),
    noise_runs: z.number().int().min(1).max(100).default(SWEEP_DEFAULTS.noise_runs),
    behavior: z.string().default(SWEEP_DEFAULTS.behavior),
    concurrency: z.number().int().min(1).max(1024).default(RUN_DEFAULTS.concurrency),
    max_turns: z.number().int().min(1).max(200).default(RUN_DEFAULTS.max_turns),
    name: z.string().min(1).max(200).optional(),
  })
  .refine((input) => input.tasks_path !== undefined || input.tasks_text !== undefined, {
    message: 'give tasks_path (a task JSONL file) or tasks_text (its content)',
    path: ['tasks_path'],
  });

const sweepId = z.object({ id: z.string().min(1, 'a sweep id is required') });

export const sweepsApi = {
  'sweeps.start': method(
    sweepStartInput,
    z.object({ sweep_id: z.string(), labels: z.array(z.string()), expected_rows: z.number().int(), tasks: z.number().int() }),
    'Start a sweep: every variant on the same frozen tasks, k and judge, the first re-scored for the noise floor (follow sweep.progress)',
  ),
  'sweeps.list': method(z.object({}).default({}), z.array(sweepSummary), 'List sweeps with their status and progress'),
  'sweeps.get': method(sweepId, sweepDetail, 'One sweep: its arms and runs, and the ranked report when done'),
  'sweeps.resume': method(
    sweepId,
    z.object({ sweep_id: z.string(), resumed: z.boolean(), message: z.string() }),
    'Finish an interrupted sweep: finished arms are kept, interrupted arms resume, missing arms start',
  ),
  'sweeps.cancel': method(
    sweepId,
    z.object({ sweep_id: z.string(), cancelled: z.boolean(), status: sweepStatus, message: z.string() }),
    'Stop a sweep going here: its current run is cancelled as runs.cancel does (finished rows kept); sweeps.resume finishes it',
  ),
  'sweeps.wait': method(
    sweepId.extend({ timeout_s: z.number().gt(0).max(86_400).optional() }),
    z.object({ sweep_id: z.string(), status: sweepStatus, stopped: z.boolean() }),
    'Resolves when the sweep stops in this engine (at once when it is not going here), or after timeout_s with stopped false',
  ),
} as const;

export const sweepProgress = z.object({
  sweep_id: z.string(),
  status: sweepStatus,
  /** The run now going: its arm index, rerun number (0, or a noise re-run) and label. */
  arm: z.number().int().nullable(),
  rerun: z.number().int().nullable(),
  label: z.string().nullable(),
  done: z.number().int(),
  total: z.number().int(),
  error: z.string().nullable(),
});
export type SweepProgress = z.infer<typeof sweepProgress>;

export const sweepsEvents = {
  /** A few times a second while a sweep goes, and once with its final status. */
  'sweep.progress': sweepProgress,
} as const;
