// The command line's spelling of a judge, parsed at the CLI's edge into JudgeSettings (shared/schema/run-settings):
// FILE.mjs / FILE.js (a JS module), FILE.json (a rules file), llm:<agent spec> with --rubric FILE.
// Paths become absolute here, so the engine (perhaps another process) reads the file this shell meant.
// (The "runs" work brings main/cli/agent-spec.ts for agent strings; this file's agent part can defer to it.)
import path from 'node:path';
import { RUN_DEFAULTS, type AgentSettings, type JudgeSettings } from '../../shared/schema/run-settings';
import { UsageError } from './command';

export interface JudgeSpecFlags {
  rubric?: string;
  likert?: boolean;
  /** --judge-timeout SECONDS (module and rules judges). */
  timeoutS?: number;
  apiKeyEnv?: string;
  cwd?: string;
}

export function parseJudgeAgent(spec: string, apiKeyEnv?: string): AgentSettings {
  const trimmed = spec.trim();
  if (trimmed === 'seeded') return { kind: 'seeded', misbehave_rate: RUN_DEFAULTS.misbehave_rate, seed: null };
  if (trimmed.startsWith('llama:')) return { kind: 'llama', model_path: trimmed.slice('llama:'.length).trim(), gpu: RUN_DEFAULTS.gpu, threads: null, context_size: null };
  if (trimmed.startsWith('openai:')) {
    const body = trimmed.slice('openai:'.length);
    const at = body.indexOf('@');
    if (at <= 0 || at === body.length - 1) throw new UsageError(`judge agent "${spec}": use openai:MODEL@BASE_URL, e.g. openai:gpt-4o-mini@http://127.0.0.1:8000/v1`);
    return { kind: 'openai', model: body.slice(0, at), base_url: body.slice(at + 1), api_key_env: apiKeyEnv ?? RUN_DEFAULTS.api_key_env, temperature: null, max_tokens: null };
  }
  throw new UsageError(`unknown judge agent "${spec}": use seeded, openai:MODEL@BASE_URL or llama:PATH.gguf`);
}

export function parseJudgeSpec(spec: string, flags: JudgeSpecFlags = {}): JudgeSettings {
  const trimmed = spec.trim();
  const resolve = (file: string) => path.resolve(flags.cwd ?? process.cwd(), file);
  const timeout_s = flags.timeoutS ?? RUN_DEFAULTS.judge_timeout_s;
  if (trimmed.startsWith('llm:')) {
    const agentSpec = trimmed.slice('llm:'.length).trim();
    if (!agentSpec) throw new UsageError('--judge llm: needs an agent spec, e.g. llm:openai:MODEL@http://127.0.0.1:8000/v1');
    return { kind: 'llm', agent: parseJudgeAgent(agentSpec, flags.apiKeyEnv), rubric_path: flags.rubric ? resolve(flags.rubric) : null, likert: flags.likert ?? false };
  }
  if (flags.rubric) throw new UsageError('--rubric only goes with an LLM judge (--judge llm:<agent spec>)');
  const lower = trimmed.toLowerCase();
  if (lower.endsWith('.mjs') || lower.endsWith('.js')) return { kind: 'module', path: resolve(trimmed), timeout_s };
  if (lower.endsWith('.json')) return { kind: 'rules', path: resolve(trimmed), timeout_s };
  throw new UsageError(`unknown judge "${spec}": give a JS module (FILE.mjs), a rules file (FILE.json) or llm:<agent spec> with --rubric FILE`);
}
