// The CLI's edge for run settings: `--agent SPEC` and `--judge SPEC` with the flags that go with them become the
// settings objects the API takes (shared/schema/run-settings.ts). Defaults are not repeated here: a flag left
// out stays undefined and the schema's default (RUN_DEFAULTS) applies.
import path from 'node:path';
import { agentFromSpec, AGENT_SPEC_HELP, judgeFromSpec, JUDGE_SPEC_HELP } from '../../shared/schema/agent-spec';
import { llamaGpu, RUN_SETTING_HELP, type AgentSettings, type JudgeSettings, type LlamaGpu } from '../../shared/schema/run-settings';
import { UsageError } from './command';

export const runSettingFlags = {
  agent: { type: 'string' },
  judge: { type: 'string' },
  rubric: { type: 'string' },
  likert: { type: 'boolean' },
  'judge-agent': { type: 'string' },
  'judge-timeout': { type: 'string' },
  'misbehave-rate': { type: 'string' },
  'api-key-env': { type: 'string' },
  gpu: { type: 'string' },
  threads: { type: 'string' },
  'context-size': { type: 'string' },
} as const;

type Flags = Partial<Record<keyof typeof runSettingFlags, string | boolean>>;

/** `--help` lines for the run settings, each with its default from RUN_DEFAULTS. */
export function runSettingsHelp(): string {
  const line = (flag: string, key: string) => `  --${flag.padEnd(16)} ${RUN_SETTING_HELP[key]}`;
  return [
    `  --agent SPEC       ${AGENT_SPEC_HELP}`,
    `  --judge SPEC       ${JUDGE_SPEC_HELP} (default: none, rows stay ungraded)`,
    '  --rubric FILE      llm and likert judges: the rubric (text, or JSON asking for likert)',
    '  --judge-agent SPEC rubric: and likert: judges: the model that judges, when the spec names none (default: seeded, an offline dry run)',
    line('judge-timeout', 'judge_timeout_s'),
    line('misbehave-rate', 'misbehave_rate'),
    line('api-key-env', 'api_key_env'),
    line('gpu', 'gpu'),
    line('threads', 'threads'),
    line('context-size', 'context_size'),
  ].join('\n');
}

export function optionalNumber(value: string | boolean | undefined, flag: string, check: (n: number) => boolean = () => true, what = 'a number'): number | undefined {
  if (value === undefined || typeof value === 'boolean') return undefined;
  const parsed = Number(value);
  if (value.trim() === '' || !Number.isFinite(parsed) || !check(parsed)) throw new UsageError(`--${flag} must be ${what} (got "${value}")`);
  return parsed;
}

function gpuFlag(value: string | boolean | undefined): LlamaGpu | undefined {
  if (value === undefined || typeof value === 'boolean') return undefined;
  const parsed = llamaGpu.safeParse(value);
  if (!parsed.success) throw new UsageError(`--gpu must be one of ${llamaGpu.options.join(', ')} (got "${value}")`);
  return parsed.data;
}

const wholeAtLeast = (min: number) => (n: number) => Number.isInteger(n) && n >= min;

function agentExtras(flags: Flags) {
  const text = (value: string | boolean | undefined) => (typeof value === 'string' ? value : undefined);
  return {
    misbehave_rate: optionalNumber(flags['misbehave-rate'], 'misbehave-rate', (n) => n >= 0 && n <= 1, 'a share in [0, 1]'),
    api_key_env: text(flags['api-key-env']),
    gpu: gpuFlag(flags.gpu),
    threads: optionalNumber(flags.threads, 'threads', wholeAtLeast(1), 'a whole number of at least 1') ?? null,
    context_size: optionalNumber(flags['context-size'], 'context-size', wholeAtLeast(256), 'a whole number of at least 256') ?? null,
  };
}

/** --judge-timeout S: seconds above 0, at most an hour; undefined when not given. */
export function judgeTimeoutFlag(value: string | boolean | undefined): number | undefined {
  return optionalNumber(value, 'judge-timeout', (n) => n > 0 && n <= 3600, 'a number of seconds above 0 (at most 3600)');
}

/** An agent whose model file is named as this shell means it: the engine may run elsewhere (serve) or in another folder. */
export function withAbsoluteModelPath(agent: AgentSettings): AgentSettings {
  return agent.kind === 'llama' ? { ...agent, model_path: path.resolve(agent.model_path) } : agent;
}

/** `--agent SPEC` and its flags as settings. */
export function agentFromFlags(flags: Flags): AgentSettings {
  if (typeof flags.agent !== 'string' || flags.agent.trim() === '') throw new UsageError(`--agent SPEC is required: ${AGENT_SPEC_HELP}`);
  return agentFromSpec(flags.agent, agentExtras(flags), process.env);
}

/**
 * `--judge SPEC` with --rubric, --likert, --judge-agent and --judge-timeout as settings; null without --judge.
 * `withAgentFlags` (grade, which has no agent of its own): --gpu, --threads, --context-size go to the judge's agent.
 */
export function judgeFromFlags(flags: Flags, withAgentFlags = false): JudgeSettings | null {
  const rubric = typeof flags.rubric === 'string' ? flags.rubric : null;
  if (typeof flags.judge !== 'string') {
    if (rubric) throw new UsageError('--rubric goes with a judge: add --judge llm:<agent spec>');
    return null;
  }
  return judgeFromSpec(
    flags.judge,
    {
      rubric_path: rubric,
      likert: flags.likert === true ? true : undefined,
      timeout_s: judgeTimeoutFlag(flags['judge-timeout']),
      judge_agent: typeof flags['judge-agent'] === 'string' ? flags['judge-agent'] : null,
      agent: withAgentFlags ? agentExtras(flags) : { api_key_env: typeof flags['api-key-env'] === 'string' ? flags['api-key-env'] : undefined },
    },
    process.env,
  );
}
