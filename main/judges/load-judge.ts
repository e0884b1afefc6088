// Builds a judge from its settings (shared/schema/run-settings.ts): a JS module, a rules file, an LLM judge, a rubric
// judge or a Likert judge.
import path from 'node:path';
import { judgeFromSpec } from '../../shared/schema/agent-spec';
import { judgeSettings, type AgentSettings, type JudgeSettings, type JudgeSettingsInput } from '../../shared/schema/run-settings';
import type { Agent } from '../agents/agent-types';
import { createAgent } from '../agents/create-agent';
import type { RowJudge } from './judge-types';
import { LLM_JUDGE_MAX_TOKENS, createLlmJudge, readRubricFile } from './llm-judge';
import { verdictResponseFormat } from './llm-verdict';
import { loadModuleJudge } from './module-judge';
import { loadLikertJudge } from './likert-judge';
import { loadRubricJudge } from './rubric-judge';
import { loadRulesJudge } from './rules-judge';

export interface LoadJudgeOptions {
  /** Relative paths resolve here (default: the process's working folder). */
  cwd?: string;
  /** Per-row deadline; default: the settings' timeout_s. */
  timeoutMs?: number;
  /** Module judges: loading deadline, heap limit of each judge process, judge processes at most. */
  loadTimeoutMs?: number;
  heapMb?: number;
  workers?: number;
  /** llm judges: requests in flight, the seed for agents that take one. */
  concurrency?: number;
  seed?: number;
  /** Only for a spec string (see judgeSettingsOf): --rubric, --likert, --api-key-env. */
  rubricFile?: string;
  rubric?: string;
  likert?: boolean;
  apiKeyEnv?: string;
}

/**
 * Settings as given, or (for callers that still hold a command-line spelling: grade, the stats worker's judge_trust)
 * a spec string read with the same parser as the CLI's.
 */
export function judgeSettingsOf(judge: JudgeSettingsInput | string, options: LoadJudgeOptions = {}): JudgeSettings {
  if (typeof judge !== 'string') return judgeSettings.parse(judge);
  return judgeFromSpec(
    judge,
    { rubric_path: options.rubricFile ?? options.rubric ?? null, likert: options.likert, agent: { api_key_env: options.apiKeyEnv } },
    process.env,
  );
}

async function judgeAgent(agent: AgentSettings, likert: boolean, options: LoadJudgeOptions): Promise<Agent> {
  // A judge samples at temperature 0 with a short reply budget (sdk-semantics §5.3), its reply constrained to the verdict schema.
  const pinned = agent.kind === 'openai' ? { temperature: 0, maxTokens: LLM_JUDGE_MAX_TOKENS, responseFormat: verdictResponseFormat(likert) } : {};
  return createAgent(agent, { seed: options.seed, concurrency: options.concurrency, ...pinned });
}

export async function loadJudge(judge: JudgeSettingsInput | string, options: LoadJudgeOptions = {}): Promise<RowJudge> {
  const settings = judgeSettingsOf(judge, options);
  const resolve = (file: string) => path.resolve(options.cwd ?? process.cwd(), file);
  if (settings.kind === 'llm') {
    const rubric = settings.rubric_path ? readRubricFile(resolve(settings.rubric_path)) : null;
    const likert = options.likert ?? (settings.likert || (rubric?.likert ?? false));
    const timeoutMs = options.timeoutMs ?? (settings.timeout_s === null ? undefined : settings.timeout_s * 1000);
    const agent = await judgeAgent(settings.agent, likert, options);
    return createLlmJudge({ agent, rubric: rubric?.rubric ?? null, likert, timeoutMs });
  }
  if (settings.kind === 'rubric' || settings.kind === 'likert') {
    const timeoutMs = options.timeoutMs ?? (settings.timeout_s === null ? undefined : settings.timeout_s * 1000);
    const rubricFile = settings.rubric_path ? resolve(settings.rubric_path) : null;
    const shared = { timeoutMs, seed: options.seed, concurrency: options.concurrency };
    return settings.kind === 'rubric' ? loadRubricJudge(settings.agent, rubricFile, shared) : loadLikertJudge(settings.agent, settings.scale, rubricFile, shared);
  }
  const timeoutMs = options.timeoutMs ?? settings.timeout_s * 1000;
  if (settings.kind === 'module') return loadModuleJudge(resolve(settings.path), { timeoutMs, loadTimeoutMs: options.loadTimeoutMs, heapMb: options.heapMb, workers: options.workers });
  return loadRulesJudge(resolve(settings.path));
}
