// Run settings as data: the agent and the judge a run (or a sweep arm) uses, every default declared once here.
// The `openai:MODEL@URL` / `llama:F.gguf` / `llm:...` strings are a command-line spelling only, parsed at the CLI's
// edge (main/cli/agent-spec.ts) into these objects; the API, the stored run and the new-run form use the objects.
import { z } from './zod';
import { normalizeBaseUrl } from './base-url';

export const llamaGpu = z.enum(['auto', 'cpu', 'cuda', 'vulkan', 'metal']);
export type LlamaGpu = z.infer<typeof llamaGpu>;

/** Every default of a run, once: `--help`, the new-run form and the engine read them from here. */
export const RUN_DEFAULTS = {
  runs: 1,
  concurrency: 8,
  seed: 0,
  max_turns: 8,
  misbehave_rate: 0.3,
  api_key_env: 'OPENAI_API_KEY',
  gpu: 'auto' as LlamaGpu,
  /** Per row, for module and rules judges: a synchronous endless loop is stopped after this long. */
  judge_timeout_s: 10,
} as const;

/** One line per setting, for `--help` and the form's hints. */
export const RUN_SETTING_HELP: Record<string, string> = {
  k: 'rollouts per task (default: 1, or the rows per prompt of a rows file)',
  runs: `eval runs: every task answered k times in each (default ${RUN_DEFAULTS.runs})`,
  concurrency: `rollouts in flight at once (default ${RUN_DEFAULTS.concurrency})`,
  seed: `the run's seed, written on every row (default ${RUN_DEFAULTS.seed})`,
  max_turns: `agent turns per rollout before it stops (default ${RUN_DEFAULTS.max_turns})`,
  misbehave_rate: `seeded agent: share of rollouts it misbehaves in (default ${RUN_DEFAULTS.misbehave_rate})`,
  api_key_env: `openai: the environment variable (or keychain name) holding the key (default ${RUN_DEFAULTS.api_key_env})`,
  gpu: `llama: GPU offload (default ${RUN_DEFAULTS.gpu})`,
  judge_timeout_s: `module and rules judges: seconds per row before the row gets judge_status timeout (default ${RUN_DEFAULTS.judge_timeout_s})`,
  threads: 'llama: CPU threads (default: the model runtime picks)',
  context_size: 'llama: context size in tokens (default: the model\'s own)',
};

export const seededAgentSettings = z.object({
  kind: z.literal('seeded'),
  misbehave_rate: z.number().min(0).max(1).default(RUN_DEFAULTS.misbehave_rate),
  /** null: the run's seed. A sweep arm may pin its own. */
  seed: z.number().int().nullable().default(null),
});

export const openAiAgentSettings = z.object({
  kind: z.literal('openai'),
  model: z.string().trim().min(1, 'name the model'),
  /** The server's /v1 base, e.g. http://127.0.0.1:8000/v1. */
  base_url: z
    .string()
    .trim()
    .min(1, 'give the server\'s /v1 base URL')
    .transform((raw, ctx) => {
      try {
        return normalizeBaseUrl(raw);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    }),
  api_key_env: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'an environment-variable name').default(RUN_DEFAULTS.api_key_env),
  temperature: z.number().min(0).max(2).nullable().default(null),
  max_tokens: z.number().int().min(1).nullable().default(null),
});

export const llamaAgentSettings = z.object({
  kind: z.literal('llama'),
  model_path: z.string().trim().min(1, 'give the path of a .gguf file').refine((p) => p.toLowerCase().endsWith('.gguf'), 'a llama model is a .gguf file'),
  gpu: llamaGpu.default(RUN_DEFAULTS.gpu),
  threads: z.number().int().min(1).max(512).nullable().default(null),
  context_size: z.number().int().min(256).max(1_048_576).nullable().default(null),
});

export const agentSettings = z.discriminatedUnion('kind', [seededAgentSettings, openAiAgentSettings, llamaAgentSettings]);
export type AgentSettings = z.infer<typeof agentSettings>;
export type AgentSettingsInput = z.input<typeof agentSettings>;

export const moduleJudgeSettings = z.object({
  kind: z.literal('module'),
  /** A JS module (.mjs / .js) whose default export grades one row. */
  path: z.string().trim().min(1),
  timeout_s: z.number().gt(0).max(3600).default(RUN_DEFAULTS.judge_timeout_s),
});

export const rulesJudgeSettings = z.object({
  kind: z.literal('rules'),
  /** A rules JSON file (docs/judges.md). */
  path: z.string().trim().min(1),
  timeout_s: z.number().gt(0).max(3600).default(RUN_DEFAULTS.judge_timeout_s),
});

export const llmJudgeSettings = z.object({
  kind: z.literal('llm'),
  agent: agentSettings,
  rubric_path: z.string().trim().min(1).nullable().default(null),
  /** Ask for a 1..5 rating mapped to 0..1 (a JSON rubric can ask for it too). */
  likert: z.boolean().default(false),
  /** Per row; null: the judge agent's own per-request deadline. */
  timeout_s: z.number().gt(0).max(3600).nullable().default(null),
});

/** A model marks a rubric item by item (docs/judges-rubric-pairwise.md). */
export const rubricJudgeSettings = z.object({
  kind: z.literal('rubric'),
  agent: agentSettings,
  /** A rubric JSON file ({criteria: [...]} or a list of criteria); null: each row's own privileged.rubric. */
  rubric_path: z.string().trim().min(1).nullable().default(null),
  timeout_s: z.number().gt(0).max(3600).nullable().default(null),
});

/** A model rates each row on lo..hi; the reward is (rating - lo) / (hi - lo), the rating kept (docs/judges-rubric-pairwise.md). */
export const likertJudgeSettings = z.object({
  kind: z.literal('likert'),
  agent: agentSettings,
  scale: z
    .tuple([z.number(), z.number()])
    .refine(([lo, hi]) => Number.isFinite(lo) && Number.isFinite(hi) && hi > lo, 'a scale is [lo, hi] with hi > lo')
    .default([1, 5]),
  /** What to rate against (plain text or markdown, as an LLM judge's rubric); null: how well the agent served the user. */
  rubric_path: z.string().trim().min(1).nullable().default(null),
  timeout_s: z.number().gt(0).max(3600).nullable().default(null),
});

export const judgeSettings = z.discriminatedUnion('kind', [moduleJudgeSettings, rulesJudgeSettings, llmJudgeSettings, rubricJudgeSettings, likertJudgeSettings]);
export type JudgeSettings = z.infer<typeof judgeSettings>;
export type JudgeSettingsInput = z.input<typeof judgeSettings>;

/** A short human label for lists and run names: `seeded`, `gpt-4o@127.0.0.1:8000`, `qwen.gguf`. */
export function agentLabel(agent: AgentSettings): string {
  switch (agent.kind) {
    case 'seeded':
      return 'seeded';
    case 'openai': {
      let host = agent.base_url;
      try {
        host = new URL(agent.base_url).host;
      } catch {
        // shown as given
      }
      return `${agent.model}@${host}`;
    }
    case 'llama':
      return agent.model_path.split(/[\\/]/).pop() ?? agent.model_path;
  }
}

export type ModelJudgeSettings = Extract<JudgeSettings, { agent: AgentSettings }>;

/** A judge a model answers for (llm, rubric, likert): it has an agent and a rubric file, no judge file. */
export function isModelJudge(judge: JudgeSettings): judge is ModelJudgeSettings {
  return judge.kind === 'llm' || judge.kind === 'rubric' || judge.kind === 'likert';
}

/** A short human label for a judge: its file name, or `llm:<agent label>` (`rubric:`, `likert:` alike). */
export function judgeLabel(judge: JudgeSettings): string {
  if (isModelJudge(judge)) return `${judge.kind}:${agentLabel(judge.agent)}${judge.kind === 'likert' ? `@${judge.scale[0]}-${judge.scale[1]}` : ''}`;
  return judge.path.split(/[\\/]/).pop() ?? judge.path;
}
