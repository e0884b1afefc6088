// Builds a judge from its settings (shared/schema/run-settings.ts JudgeSettings) or, for older callers, its spec
// string: FILE.mjs / FILE.js (a JS module), FILE.json (built-in rules), llm:<agent spec> (an LLM judge).
// Everything is loaded and checked here, before a run or a graded dataset exists: a bad judge throws an Error
// that names the file and where.
import path from 'node:path';
import { RUN_DEFAULTS, judgeSettings, type AgentSettings, type JudgeSettings, type JudgeSettingsInput } from '../../shared/schema/run-settings';
import type { Agent } from '../sim/agent-types';
import { createAgent } from '../sim/agents/create-agent';
import { openAiAgentFromSpec } from '../sim/agents/openai-agent';
import type { RowJudge } from './judge-types';
import { LLM_JUDGE_MAX_TOKENS, createLlmJudge, readRubricFile } from './llm-judge';
import { verdictResponseFormat } from './llm-verdict';
import { loadModuleJudge } from './module-judge';
import { loadRulesJudge } from './rules-judge';

export interface LoadJudgeOptions {
  /** --rubric FILE (llm judges, spec strings only). `rubric` is the same, as the run engine names it. */
  rubricFile?: string;
  rubric?: string;
  /** Relative paths resolve here (default: the process's working folder). */
  cwd?: string;
  /** Ask the LLM judge for a 1..5 Likert score mapped to 0..1 (a JSON rubric can ask for it too). */
  likert?: boolean;
  /** Per-row deadline; settings carry it as timeout_s. Default RUN_DEFAULTS.judge_timeout_s. */
  timeoutMs?: number;
  /** Module judges: loading deadline, heap limit of each worker, worker threads at most. */
  loadTimeoutMs?: number;
  heapMb?: number;
  workers?: number;
  /** llm judges: requests in flight, the key's environment variable, the seed for agents that take one. */
  concurrency?: number;
  apiKeyEnv?: string;
  seed?: number;
}

/** The command-line spelling of an agent (until create-agent takes AgentSettings itself). */
function agentSpecOf(agent: AgentSettings): string {
  if (agent.kind === 'seeded') return 'seeded';
  if (agent.kind === 'openai') return `openai:${agent.model}@${agent.base_url}`;
  return `llama:${agent.model_path}`;
}

async function judgeAgent(agent: AgentSettings, likert: boolean, options: LoadJudgeOptions): Promise<Agent> {
  const spec = agentSpecOf(agent);
  const apiKeyEnv = options.apiKeyEnv ?? (agent.kind === 'openai' ? agent.api_key_env : undefined);
  if (agent.kind === 'openai') {
    // A judge samples at temperature 0 with a short reply budget (sdk-semantics §5.3), its reply constrained to the verdict schema.
    return openAiAgentFromSpec(spec, { apiKeyEnv, concurrency: options.concurrency, temperature: 0, maxTokens: LLM_JUDGE_MAX_TOKENS, responseFormat: verdictResponseFormat(likert) });
  }
  return createAgent(spec, { seed: options.seed, apiKeyEnv, concurrency: options.concurrency, gpu: agent.kind === 'llama' ? agent.gpu : undefined });
}

/** Reads an old-style spec string as settings; the CLI's own parser (main/cli) does the same at its edge. */
function settingsFromSpec(spec: string, options: LoadJudgeOptions): JudgeSettingsInput {
  const trimmed = spec.trim();
  const rubric = options.rubricFile ?? options.rubric;
  const timeout_s = (options.timeoutMs ?? RUN_DEFAULTS.judge_timeout_s * 1000) / 1000;
  if (trimmed.startsWith('llm:')) {
    const agentSpec = trimmed.slice('llm:'.length).trim();
    if (!agentSpec) throw new Error('--judge llm: needs an agent spec, e.g. llm:openai:MODEL@http://127.0.0.1:8000/v1');
    let agent: AgentSettings;
    if (agentSpec === 'seeded') agent = { kind: 'seeded', misbehave_rate: RUN_DEFAULTS.misbehave_rate, seed: null };
    else if (agentSpec.startsWith('llama:')) agent = { kind: 'llama', model_path: agentSpec.slice('llama:'.length).trim(), gpu: RUN_DEFAULTS.gpu, threads: null, context_size: null };
    else if (agentSpec.startsWith('openai:')) {
      const body = agentSpec.slice('openai:'.length);
      const at = body.indexOf('@');
      if (at <= 0) throw new Error(`judge agent "${agentSpec}": use openai:MODEL@BASE_URL`);
      agent = { kind: 'openai', model: body.slice(0, at), base_url: body.slice(at + 1), api_key_env: options.apiKeyEnv ?? RUN_DEFAULTS.api_key_env, temperature: null, max_tokens: null };
    } else throw new Error(`unknown judge agent "${agentSpec}": use seeded, openai:MODEL@BASE_URL or llama:PATH.gguf`);
    return { kind: 'llm', agent, rubric_path: rubric ?? null, likert: options.likert ?? false };
  }
  if (rubric) throw new Error('--rubric only goes with an LLM judge (--judge llm:<agent spec>)');
  const lower = trimmed.toLowerCase();
  if (lower.endsWith('.mjs') || lower.endsWith('.js')) return { kind: 'module', path: trimmed, timeout_s };
  if (lower.endsWith('.json')) return { kind: 'rules', path: trimmed, timeout_s };
  throw new Error(`unknown judge "${spec}": give a JS module (FILE.mjs), a rules file (FILE.json) or llm:<agent spec> with --rubric FILE`);
}

export async function loadJudge(judge: string | JudgeSettingsInput, options: LoadJudgeOptions = {}): Promise<RowJudge> {
  const parsed = judgeSettings.safeParse(typeof judge === 'string' ? settingsFromSpec(judge, options) : judge);
  if (!parsed.success) throw new Error(`judge settings: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || '(judge)'}: ${issue.message}`).join('; ')}`);
  const settings: JudgeSettings = parsed.data;
  const resolve = (file: string) => path.resolve(options.cwd ?? process.cwd(), file);
  if (settings.kind === 'llm') {
    const rubric = settings.rubric_path ? readRubricFile(resolve(settings.rubric_path)) : null;
    const likert = settings.likert || options.likert || (rubric?.likert ?? false);
    const agent = await judgeAgent(settings.agent, likert, options);
    return createLlmJudge({ agent, rubric: rubric?.rubric ?? null, likert, timeoutMs: options.timeoutMs });
  }
  const timeoutMs = options.timeoutMs ?? settings.timeout_s * 1000;
  if (settings.kind === 'module') {
    return loadModuleJudge(resolve(settings.path), { timeoutMs, loadTimeoutMs: options.loadTimeoutMs, heapMb: options.heapMb, workers: options.workers });
  }
  return loadRulesJudge(resolve(settings.path));
}
