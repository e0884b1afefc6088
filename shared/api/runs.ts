// The runs domain: start a simulation (tasks x k x runs rollouts), list, inspect, cancel and resume it.
import { z } from '../schema/zod';
import { agentFromSpec, judgeFromSpec } from '../schema/agent-spec';
import { agentSettings, judgeSettings, RUN_DEFAULTS } from '../schema/run-settings';
import { method } from './define';

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

/** What a run was started with; stored with the run so `resume` needs nothing else. Every path in it is absolute. */
export const runConfig = z.object({
  tasks_path: z.string().nullable(),
  tasks_sha256: z.string(),
  tasks_count: z.number().int(),
  agent: agentSettings,
  judge: judgeSettings.nullable(),
  k: z.number().int(),
  runs: z.number().int(),
  seed: z.number().int(),
  max_turns: z.number().int(),
  concurrency: z.number().int(),
  /** Replaces every task's system_prompt (a sweep variant's prompt); null: each task's own. */
  system_prompt: z.string().nullable().default(null),
  /** The tracked agent this run scores, and its version (platform RunSpec.version); null when not given. */
  agent_name: z.string().nullable().default(null),
  version: z.string().nullable().default(null),
  /** Graded rows get the style, trace and grounding markers (docs/markers.md); a sweep's runs do not. */
  stamp_markers: z.boolean().default(true),
});
export type RunConfig = z.infer<typeof runConfig>;

type Obj = Record<string, unknown>;

/** What an agent name may look like (the platform's id rule, §4.2 RunSpec.id). */
export const AGENT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * Runs stored by builds before run settings were data kept the agent and judge as spec strings with loose fields
 * beside them (misbehave_rate, api_key_env, gpu, threads, context_size, rubric): read as the objects, so they resume.
 */
export function upgradeStoredConfig(raw: unknown): unknown {
  if (raw === null || typeof raw !== 'object') return raw;
  const old = raw as Obj;
  if (typeof old.agent !== 'string' && typeof old.judge !== 'string') return raw;
  const num = (value: unknown) => (typeof value === 'number' ? value : undefined);
  const str = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
  const extras = {
    misbehave_rate: num(old.misbehave_rate),
    api_key_env: str(old.api_key_env),
    gpu: str(old.gpu) as never,
    threads: num(old.threads) ?? null,
    context_size: num(old.context_size) ?? null,
  };
  const upgraded: Obj = {
    tasks_path: old.tasks_path ?? null,
    tasks_sha256: old.tasks_sha256,
    tasks_count: old.tasks_count,
    k: old.k,
    runs: old.runs,
    seed: old.seed,
    max_turns: old.max_turns,
    concurrency: old.concurrency,
    agent: typeof old.agent === 'string' ? agentFromSpec(old.agent, extras) : old.agent,
    judge: typeof old.judge === 'string' ? judgeFromSpec(old.judge, { rubric_path: str(old.rubric) ?? null, agent: { api_key_env: extras.api_key_env } }) : (old.judge ?? null),
  };
  return upgraded;
}

/** A stored run's config, whichever build wrote it. */
export const storedRunConfig = z.preprocess(upgradeStoredConfig, runConfig);

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
  agent_name: z.string().nullable(),
  version: z.string().nullable(),
});
export type RunSummary = z.infer<typeof runSummary>;

export const runDetail = runSummary.extend({
  config: runConfig,
  rollouts_lost: rolloutsLost,
  /** The statistics core's pass@1 (shared/stats/pass-at.ts) over the run's rows; null while nothing is graded. */
  pass_at_1: z.number().nullable(),
  graded_rows: z.number().int(),
  /** Rows by judge_status (ok, error, timeout, crashed, invalid_result, missing_reward, ...); {} without a judge. */
  judge_status_counts: z.record(z.string(), z.number().int()),
});
export type RunDetail = z.infer<typeof runDetail>;

export const runStartInput = z
  .object({
    /** A task JSONL (or a rows file from an earlier run) on the engine's machine. */
    tasks_path: z.string().min(1).optional(),
    /** Or the task JSONL itself (the UI may send the text of a picked file). */
    tasks_text: z.string().max(64 * 1024 * 1024).optional(),
    agent: agentSettings,
    /** None: rows stay ungraded. */
    judge: judgeSettings.nullable().default(null),
    /** Default: 1, or the rows per prompt of a rows file. */
    k: z.number().int().min(1).max(10_000).optional(),
    runs: z.number().int().min(1).max(1000).default(RUN_DEFAULTS.runs),
    concurrency: z.number().int().min(1).max(1024).default(RUN_DEFAULTS.concurrency),
    seed: z.number().int().default(RUN_DEFAULTS.seed),
    max_turns: z.number().int().min(1).max(200).default(RUN_DEFAULTS.max_turns),
    name: z.string().min(1).max(200).optional(),
    /** Replaces every task's system_prompt for this run (stored with the run, so resume keeps it). */
    system_prompt: z.string().max(100_000).optional(),
    /** The agent this run scores (`verdict AGENT` reads its runs) and the version it scores. */
    agent_name: z.string().regex(AGENT_NAME, 'an agent name: letters, digits, ".", "_" or "-", starting with a letter or digit').max(64).optional(),
    version: z.string().min(1).max(40, 'a version holds 40 characters (platform RunSpec.version)').optional(),
    /** Stamp the style, trace and grounding markers on each graded row (docs/markers.md); false leaves only the judge's. */
    stamp_markers: z.boolean().default(true),
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
    z.object({
      run_id: z.string(),
      expected_rows: z.number().int(),
      remaining: z.number().int(),
      /** False when there was nothing to do (the run is done, or already going here). */
      resumed: z.boolean(),
      message: z.string(),
    }),
    'Finish an interrupted or cancelled run: only the missing rollouts are run; a finished run is left as it is',
  ),
  'runs.wait': method(
    z.object({ id: runId, timeout_s: z.number().gt(0).max(86_400).optional() }),
    z.object({ run_id: z.string(), status: runStatus, stopped: z.boolean() }),
    'Resolves when the run stops in this engine (at once when it is not going here), or after timeout_s with stopped false',
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
