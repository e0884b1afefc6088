// The runs domain: start a simulation (tasks x k x runs rollouts), list, inspect, cancel and resume it.
import { z } from 'zod';
import { method } from './define';

export const llamaGpu = z.enum(['auto', 'cpu', 'cuda', 'vulkan', 'metal']);

export const runStatus = z.enum(['running', 'done', 'cancelled', 'failed', 'interrupted']);
export type RunStatus = z.infer<typeof runStatus>;

/** Re-rolled and lost rollouts, by reason (sdk-semantics §3.5: agent_error, empty_reply, tool_markup). */
export const rolloutsLost = z.object({
  lost: z.number().int(),
  lost_by: z.record(z.string(), z.number().int()),
  rerolled: z.number().int(),
  rerolled_by: z.record(z.string(), z.number().int()),
});
export type RolloutsLost = z.infer<typeof rolloutsLost>;

/** What a run was started with; stored with the run so `resume` needs nothing else. */
export const runConfig = z.object({
  tasks_path: z.string().nullable(),
  tasks_sha256: z.string(),
  tasks_count: z.number().int(),
  agent: z.string(),
  k: z.number().int(),
  runs: z.number().int(),
  judge: z.string().nullable(),
  rubric: z.string().nullable(),
  seed: z.number().int(),
  max_turns: z.number().int(),
  concurrency: z.number().int(),
  misbehave_rate: z.number(),
  api_key_env: z.string().nullable(),
  /** llama agents: GPU offload ('auto' picks), CPU threads and context size (null: the model's defaults). */
  gpu: llamaGpu.default('auto'),
  threads: z.number().int().nullable().default(null),
  context_size: z.number().int().nullable().default(null),
});
export type RunConfig = z.infer<typeof runConfig>;

export const runSummary = z.object({
  id: z.string(),
  name: z.string(),
  status: runStatus,
  rows: z.number().int(),
  expected_rows: z.number().int(),
  agent: z.string(),
  judge: z.string().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  error: z.string().nullable(),
});
export type RunSummary = z.infer<typeof runSummary>;

export const runDetail = runSummary.extend({
  config: runConfig,
  rollouts_lost: rolloutsLost,
  /** Mean over tasks of the per-task pass rate of binary rewards; null while nothing is graded. */
  pass_at_1: z.number().nullable(),
  graded_rows: z.number().int(),
});
export type RunDetail = z.infer<typeof runDetail>;

export const runStartInput = z
  .object({
    /** A task JSONL (or a rows file from an earlier run) on the engine's machine. */
    tasks_path: z.string().min(1).optional(),
    /** Or the task JSONL itself (the UI may send the text of a picked file). */
    tasks_text: z.string().max(64 * 1024 * 1024).optional(),
    agent: z.string().min(1, 'an agent spec is required: seeded, openai:MODEL@BASE_URL or llama:PATH.gguf'),
    k: z.number().int().min(1).max(10_000).optional(),
    runs: z.number().int().min(1).max(1000).default(1),
    judge: z.string().min(1).optional(),
    rubric: z.string().min(1).optional(),
    concurrency: z.number().int().min(1).max(1024).default(8),
    seed: z.number().int().default(0),
    max_turns: z.number().int().min(1).max(200).default(8),
    misbehave_rate: z.number().min(0).max(1).default(0.3),
    api_key_env: z.string().min(1).optional(),
    gpu: llamaGpu.default('auto'),
    threads: z.number().int().min(1).max(512).optional(),
    context_size: z.number().int().min(256).max(1_048_576).optional(),
    name: z.string().min(1).max(200).optional(),
  })
  .refine((input) => input.tasks_path !== undefined || input.tasks_text !== undefined, {
    message: 'give tasks_path (a task JSONL file) or tasks_text (its content)',
    path: ['tasks_path'],
  });

const runId = z.string().min(1, 'a run id is required');

export const runsApi = {
  'runs.start': method(
    runStartInput,
    z.object({ run_id: z.string(), expected_rows: z.number().int(), tasks: z.number().int() }),
    'Start a run: every task answered k times per eval run; rows land as they finish (follow run.progress)',
  ),
  'runs.list': method(z.object({}).default({}), z.array(runSummary), 'List runs with their status and row counts'),
  'runs.get': method(z.object({ id: runId }), runDetail, 'One run: config, progress, rollouts lost, pass@1'),
  'runs.cancel': method(z.object({ id: runId }), z.object({ cancelled: z.boolean() }), 'Stop a running run; its finished rows are kept'),
  'runs.resume': method(
    z.object({ id: runId }),
    z.object({ run_id: z.string(), expected_rows: z.number().int(), remaining: z.number().int() }),
    'Finish an interrupted or cancelled run: only the missing rollouts are run',
  ),
} as const;

export const runProgress = z.object({
  run_id: z.string(),
  status: runStatus,
  done: z.number().int(),
  total: z.number().int(),
  rollouts_per_s: z.number(),
  eta_s: z.number().nullable(),
  lost: z.number().int(),
  rerolled: z.number().int(),
  error: z.string().nullable(),
});
export type RunProgress = z.infer<typeof runProgress>;

export const runsEvents = {
  /** Sent about ten times a second while a run goes, and once with its final status. */
  'run.progress': runProgress,
} as const;
