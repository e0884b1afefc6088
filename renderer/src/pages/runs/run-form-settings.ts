// What the new-run form holds and how it becomes the settings objects `runs.start` takes (no React here, so it is
// tested on its own). Defaults are RUN_DEFAULTS; a bad value gets the schema's own message.
import { agentSettings, judgeSettings, RUN_DEFAULTS, type AgentSettings, type JudgeSettings, type LlamaGpu } from '../../../../shared/schema/run-settings';

export type AgentKind = AgentSettings['kind'];

/** What the fields hold, every kind at once, so switching kinds keeps what was typed. */
export interface AgentChoice {
  kind: AgentKind;
  misbehaveRate: number;
  modelPath: string;
  gpu: LlamaGpu;
  threads: string;
  contextSize: string;
  openaiModel: string;
  baseUrl: string;
  apiKeyEnv: string;
}

export const defaultAgent: AgentChoice = {
  kind: 'seeded',
  misbehaveRate: RUN_DEFAULTS.misbehave_rate,
  modelPath: '',
  gpu: RUN_DEFAULTS.gpu,
  threads: '',
  contextSize: '',
  openaiModel: '',
  baseUrl: 'http://127.0.0.1:8000/v1',
  apiKeyEnv: RUN_DEFAULTS.api_key_env,
};

const optionalInt = (text: string) => (text.trim() === '' ? null : Number(text));

/** The settings object, or a sentence saying what is missing (the schema's own message). */
export function agentSettingsOf(choice: AgentChoice): { settings: AgentSettings } | { problem: string } {
  const raw =
    choice.kind === 'seeded'
      ? { kind: 'seeded', misbehave_rate: choice.misbehaveRate }
      : choice.kind === 'llama'
        ? { kind: 'llama', model_path: choice.modelPath, gpu: choice.gpu, threads: optionalInt(choice.threads), context_size: optionalInt(choice.contextSize) }
        : { kind: 'openai', model: choice.openaiModel, base_url: choice.baseUrl, api_key_env: choice.apiKeyEnv.trim() || RUN_DEFAULTS.api_key_env };
  if (choice.kind === 'llama' && !choice.modelPath) return { problem: 'pick a GGUF model for the local agent' };
  const parsed = agentSettings.safeParse(raw);
  if (parsed.success) return { settings: parsed.data };
  const issue = parsed.error.issues[0];
  return { problem: `${issue.path.join('.') || 'agent'}: ${issue.message}` };
}

export interface JudgeChoice {
  kind: 'file' | 'llm';
  /** A .mjs/.js module or a .json rules file; empty: no judge. */
  path: string;
  agent: AgentChoice;
  rubricPath: string;
  likert: boolean;
  timeoutS: number;
}

export const defaultJudge: JudgeChoice = { kind: 'file', path: '', agent: defaultAgent, rubricPath: '', likert: false, timeoutS: RUN_DEFAULTS.judge_timeout_s };

/** The settings object (null: no judge), or what is missing. */
export function judgeSettingsOf(choice: JudgeChoice): { settings: JudgeSettings | null } | { problem: string } {
  let raw: unknown;
  if (choice.kind === 'file') {
    const file = choice.path.trim();
    if (!file) return { settings: null };
    // The file's type says which judge it is: rules are JSON, anything else is a JS module.
    raw = { kind: file.toLowerCase().endsWith('.json') ? 'rules' : 'module', path: file, timeout_s: choice.timeoutS };
  } else {
    const agent = agentSettingsOf(choice.agent);
    if ('problem' in agent) return { problem: `judge agent: ${agent.problem}` };
    raw = { kind: 'llm', agent: agent.settings, rubric_path: choice.rubricPath.trim() || null, likert: choice.likert, timeout_s: choice.timeoutS };
  }
  const parsed = judgeSettings.safeParse(raw);
  if (parsed.success) return { settings: parsed.data };
  const issue = parsed.error.issues[0];
  return { problem: `judge ${issue.path.join('.')}: ${issue.message}` };
}

