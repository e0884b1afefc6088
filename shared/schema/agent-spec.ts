// The command-line spelling of run settings: `seeded`, `openai:MODEL@BASE_URL`, `llama:PATH.gguf` for agents and
// `FILE.mjs`, `FILE.json`, `llm:<agent spec>` for judges. The CLI (main/cli/agent-spec.ts) turns its flags into
// settings objects with these functions; the only other reader is the upgrade of runs stored by earlier builds,
// which kept the strings. Everything past that edge (API, stored runs, the form) uses the objects.
import { normalizeBaseUrl } from './base-url';
import { agentSettings, judgeSettings, type AgentSettings, type JudgeSettings, type LlamaGpu } from './run-settings';

export { normalizeBaseUrl };

export const AGENT_SPEC_HELP = 'seeded | openai:MODEL@BASE_URL | llama:PATH.gguf';
export const JUDGE_SPEC_HELP = 'FILE.mjs | FILE.json | llm:<agent spec> | rubric:FILE.json[@<agent spec>] | rubric:row[@<agent spec>] | likert:[<agent spec>@]LO-HI';

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
  /** `--judge-agent SPEC`: the model of a rubric: or likert: judge that names none itself (default seeded). */
  judge_agent?: string | null;
  /** The flags of the judge's agent (llm judges): its key variable, llama's GPU. */
  agent?: AgentSpecExtras;
}

const SCALE = /^(-?\d+(?:\.\d+)?)-(-?\d+(?:\.\d+)?)$/;
const TRAILING_SCALE = /@(-?\d+(?:\.\d+)?)-(-?\d+(?:\.\d+)?)$/;

/** `likert:` and `rubric:` judges: the spec's own agent, else --judge-agent, else the offline seeded stand-in. */
function modelOf(inline: string, extras: JudgeSpecExtras, env: Record<string, string | undefined>, spec: string): AgentSettings {
  const given = inline.trim() || extras.judge_agent?.trim() || 'seeded';
  try {
    return agentFromSpec(given, extras.agent, env);
  } catch (error) {
    throw new Error(`--judge ${spec}: the judge's agent: ${(error as Error).message}`);
  }
}

/** `likert:[AGENT@]LO-HI` or `likert:AGENT` (1-5). */
function likertFromSpec(body: string, extras: JudgeSpecExtras, env: Record<string, string | undefined>, spec: string): JudgeSettings {
  let agent = body;
  let scale: [number, number] = [1, 5];
  const only = SCALE.exec(body.trim());
  const trailing = only ? null : TRAILING_SCALE.exec(body.trim());
  if (only) (agent = ''), (scale = [Number(only[1]), Number(only[2])]);
  else if (trailing) (agent = body.trim().slice(0, trailing.index)), (scale = [Number(trailing[1]), Number(trailing[2])]);
  if (!(scale[1] > scale[0])) throw new Error(`--judge ${spec}: a Likert scale is LO-HI with HI above LO, e.g. likert:1-5`);
  return judgeSettings.parse({ kind: 'likert', agent: modelOf(agent, extras, env, spec), scale, rubric_path: extras.rubric_path ?? null, timeout_s: extras.timeout_s ?? null });
}

/** `rubric:FILE.json[@AGENT]` or `rubric:row[@AGENT]` (each row's own privileged.rubric). */
function rubricFromSpec(body: string, extras: JudgeSpecExtras, env: Record<string, string | undefined>, spec: string): JudgeSettings {
  if (extras.rubric_path) throw new Error(`--judge ${spec}: a rubric judge names its rubric in the spec (rubric:FILE.json), not with --rubric`);
  const trimmed = body.trim();
  const atJson = trimmed.toLowerCase().indexOf('.json@');
  let file = trimmed;
  let agent = '';
  if (atJson >= 0) (file = trimmed.slice(0, atJson + 5)), (agent = trimmed.slice(atJson + 6));
  else if (trimmed.startsWith('row@')) (file = 'row'), (agent = trimmed.slice(4));
  if (file !== 'row' && !file.toLowerCase().endsWith('.json')) throw new Error(`--judge ${spec}: give the rubric as a JSON file (rubric:FILE.json), or rubric:row for each row's own privileged.rubric`);
  return judgeSettings.parse({ kind: 'rubric', agent: modelOf(agent, extras, env, spec), rubric_path: file === 'row' ? null : file, timeout_s: extras.timeout_s ?? null });
}

/** Whether a rubric: or likert: spec names its own agent (else --judge-agent or the seeded stand-in answers). */
export function specNamesAgent(spec: string): boolean {
  const trimmed = spec.trim();
  if (trimmed.startsWith('likert:')) {
    const body = trimmed.slice('likert:'.length).trim();
    return body !== '' && !SCALE.test(body);
  }
  if (trimmed.startsWith('rubric:')) return /\.json@|^rubric:row@/i.test(trimmed);
  return false;
}

/** `FILE.mjs` / `FILE.js`, `FILE.json`, `llm:<agent spec>`, `rubric:...` or `likert:...`, with --rubric, --likert and the timeout, as settings. */
export function judgeFromSpec(spec: string, extras: JudgeSpecExtras = {}, env: Record<string, string | undefined> = {}): JudgeSettings {
  const trimmed = spec.trim();
  const timeout = extras.timeout_s ?? undefined;
  if (trimmed.startsWith('likert:')) return likertFromSpec(trimmed.slice('likert:'.length), extras, env, spec);
  if (trimmed.startsWith('rubric:')) return rubricFromSpec(trimmed.slice('rubric:'.length), extras, env, spec);
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
  throw new Error(`unknown judge "${spec}": give a JS module (FILE.mjs), a rules file (FILE.json), llm:<agent spec> with --rubric FILE, rubric:FILE.json or likert:[<agent spec>@]LO-HI`);
}
