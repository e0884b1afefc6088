// The command-line spelling of run settings: `seeded`, `openai:MODEL@BASE_URL`, `llama:PATH.gguf` for agents and
// `FILE.mjs`, `FILE.json`, `llm:<agent spec>` for judges. The CLI (main/cli/agent-spec.ts) turns its flags into
// settings objects with these functions; the only other reader is the upgrade of runs stored by earlier builds,
// which kept the strings. Everything past that edge (API, stored runs, the form) uses the objects.
import { normalizeBaseUrl } from './base-url';
import { agentSettings, judgeSettings, type AgentSettings, type JudgeSettings, type LlamaGpu } from './run-settings';

export { normalizeBaseUrl };

export const AGENT_SPEC_HELP = 'seeded | openai:MODEL@BASE_URL | llama:PATH.gguf';
export const JUDGE_SPEC_HELP = 'FILE.mjs | FILE.json | llm:<agent spec>';

/** `openai:MODEL@BASE_URL` (the URL may be left out: then OPENAI_BASE_URL from `env`, else https://api.openai.com/v1). */
export function parseOpenAiSpec(spec: string, env: Record<string, string | undefined> = {}): { model: string; baseUrl: string } {
  if (!spec.startsWith('openai:')) throw new Error(`agent spec "${spec}" is not openai:MODEL@BASE_URL`);
  const rest = spec.slice('openai:'.length);
  const at = rest.search(/@[a-z][a-z0-9+.-]*:\/\//i);
  const model = (at >= 0 ? rest.slice(0, at) : rest).trim();
  if (!model) throw new Error(`agent spec "${spec}" names no model: write openai:MODEL@BASE_URL`);
  const base = at >= 0 ? rest.slice(at + 1) : env.OPENAI_BASE_URL || 'https://api.openai.com/v1';
  return { model, baseUrl: normalizeBaseUrl(base) };
}

/** The flags beside `--agent` that belong to one kind of agent; the others are ignored for that kind. */
export interface AgentSpecExtras {
  misbehave_rate?: number;
  api_key_env?: string;
  gpu?: LlamaGpu;
  threads?: number | null;
  context_size?: number | null;
}

function checked<T>(parse: () => T, spec: string): T {
  try {
    return parse();
  } catch (error) {
    const issues = (error as { issues?: Array<{ path: PropertyKey[]; message: string }> }).issues;
    if (!issues) throw error;
    throw new Error(`agent spec "${spec}": ${issues.map((issue) => `${issue.path.map(String).join('.') || 'value'}: ${issue.message}`).join('; ')}`);
  }
}

/** `seeded`, `openai:MODEL@BASE_URL` or `llama:PATH.gguf`, with the flags that go with it, as settings. */
export function agentFromSpec(spec: string, extras: AgentSpecExtras = {}, env: Record<string, string | undefined> = {}): AgentSettings {
  const trimmed = spec.trim();
  if (trimmed === 'seeded') return checked(() => agentSettings.parse({ kind: 'seeded', misbehave_rate: extras.misbehave_rate }), spec);
  if (trimmed.startsWith('openai:')) {
    const { model, baseUrl } = parseOpenAiSpec(trimmed, env);
    return checked(() => agentSettings.parse({ kind: 'openai', model, base_url: baseUrl, api_key_env: extras.api_key_env }), spec);
  }
  if (trimmed.startsWith('llama:')) {
    const modelPath = trimmed.slice('llama:'.length).trim();
    if (!modelPath.toLowerCase().endsWith('.gguf')) throw new Error(`agent spec "${spec}": llama: needs the path of a .gguf file, e.g. llama:./models/qwen.gguf`);
    return checked(
      () => agentSettings.parse({ kind: 'llama', model_path: modelPath, gpu: extras.gpu, threads: extras.threads ?? null, context_size: extras.context_size ?? null }),
      spec,
    );
  }
  throw new Error(`unknown agent spec "${spec}": use seeded, openai:MODEL@BASE_URL or llama:PATH.gguf`);
}

export interface JudgeSpecExtras {
  rubric_path?: string | null;
  likert?: boolean;
  timeout_s?: number | null;
  /** The flags of the judge's agent (llm judges): its key variable, llama's GPU. */
  agent?: AgentSpecExtras;
}

/** `FILE.mjs` / `FILE.js`, `FILE.json` or `llm:<agent spec>`, with --rubric, --likert and the timeout, as settings. */
export function judgeFromSpec(spec: string, extras: JudgeSpecExtras = {}, env: Record<string, string | undefined> = {}): JudgeSettings {
  const trimmed = spec.trim();
  const timeout = extras.timeout_s ?? undefined;
  if (trimmed.startsWith('llm:')) {
    const agentSpec = trimmed.slice('llm:'.length).trim();
    if (!agentSpec) throw new Error('--judge llm: needs an agent spec, e.g. llm:openai:MODEL@http://127.0.0.1:8000/v1');
    const agent = agentFromSpec(agentSpec, extras.agent, env);
    return judgeSettings.parse({ kind: 'llm', agent, rubric_path: extras.rubric_path ?? null, likert: extras.likert ?? false, timeout_s: extras.timeout_s ?? null });
  }
  if (extras.rubric_path) throw new Error('--rubric only goes with an LLM judge (--judge llm:<agent spec>)');
  const lower = trimmed.toLowerCase();
  if (lower.endsWith('.mjs') || lower.endsWith('.js')) return judgeSettings.parse({ kind: 'module', path: trimmed, timeout_s: timeout });
  if (lower.endsWith('.json')) return judgeSettings.parse({ kind: 'rules', path: trimmed, timeout_s: timeout });
  throw new Error(`unknown judge "${spec}": give a JS module (FILE.mjs), a rules file (FILE.json) or llm:<agent spec> with --rubric FILE`);
}
