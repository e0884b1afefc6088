// Builds a judge from its spec: FILE.mjs / FILE.js (a JS module), FILE.json (built-in rules), llm:<agent spec> (an LLM judge).
import path from 'node:path';
import type { Agent } from '../agents/agent-types';
import { createAgent } from '../agents/create-agent';
import { openAiAgentFromSpec } from '../agents/openai-agent';
import type { RowJudge } from './judge-types';
import { LLM_JUDGE_MAX_TOKENS, createLlmJudge, readRubricFile } from './llm-judge';
import { verdictResponseFormat } from './llm-verdict';
import { loadModuleJudge } from './module-judge';
import { loadRulesJudge } from './rules-judge';

export interface LoadJudgeOptions {
  /** --rubric FILE (llm judges). `rubric` is the same, as the run engine names it. */
  rubricFile?: string;
  rubric?: string;
  /** Relative paths resolve here (default: the process's working folder). */
  cwd?: string;
  /** Ask the LLM judge for a 1..5 Likert score mapped to 0..1 (a JSON rubric can ask for it too). */
  likert?: boolean;
  /** Per-row deadline. */
  timeoutMs?: number;
  /** llm judges: requests in flight, the key's environment variable, the seed for agents that take one. */
  concurrency?: number;
  apiKeyEnv?: string;
  seed?: number;
}

async function judgeAgent(spec: string, likert: boolean, options: LoadJudgeOptions): Promise<Agent> {
  if (spec.startsWith('openai:')) {
    // A judge samples at temperature 0 with a short reply budget (sdk-semantics §5.3), its reply constrained to the verdict schema.
    return openAiAgentFromSpec(spec, {
      apiKeyEnv: options.apiKeyEnv,
      concurrency: options.concurrency,
      temperature: 0,
      maxTokens: LLM_JUDGE_MAX_TOKENS,
      responseFormat: verdictResponseFormat(likert),
    });
  }
  return createAgent(spec, { seed: options.seed, apiKeyEnv: options.apiKeyEnv, concurrency: options.concurrency });
}

export async function loadJudge(spec: string, options: LoadJudgeOptions = {}): Promise<RowJudge> {
  const trimmed = spec.trim();
  const resolve = (file: string) => path.resolve(options.cwd ?? process.cwd(), file);
  const rubricFile = options.rubricFile ?? options.rubric;
  if (trimmed.startsWith('llm:')) {
    const agentSpec = trimmed.slice('llm:'.length).trim();
    if (!agentSpec) throw new Error('--judge llm: needs an agent spec, e.g. llm:openai:MODEL@http://127.0.0.1:8000/v1');
    const rubric = rubricFile ? readRubricFile(resolve(rubricFile)) : null;
    const likert = options.likert ?? rubric?.likert ?? false;
    const agent = await judgeAgent(agentSpec, likert, options);
    return createLlmJudge({ agent, rubric: rubric?.rubric ?? null, likert, timeoutMs: options.timeoutMs });
  }
  if (rubricFile) throw new Error('--rubric only goes with an LLM judge (--judge llm:<agent spec>)');
  const lower = trimmed.toLowerCase();
  if (lower.endsWith('.mjs') || lower.endsWith('.js')) return loadModuleJudge(resolve(trimmed), { timeoutMs: options.timeoutMs });
  if (lower.endsWith('.json')) return loadRulesJudge(resolve(trimmed));
  throw new Error(`unknown judge "${spec}": give a JS module (FILE.mjs), a rules file (FILE.json) or llm:<agent spec> with --rubric FILE`);
}
