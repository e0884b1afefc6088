// The agent a model judge (rubric, Likert, pairwise) asks: its settings' agent pinned to temperature 0 and the
// judge's reply budget and schema (sdk-semantics §5.3), or, for `seeded`, the offline stand-in that answers in the
// judge's own reply shape (seeded-judge-agent.ts).
import type { AgentSettings } from '../../shared/schema/run-settings';
import type { Agent } from '../agents/agent-types';
import { createAgent } from '../agents/create-agent';
import { seededJudgeAgent } from './seeded-judge-agent';

export interface ModelJudgeAgentOptions {
  maxTokens: number;
  /** JSON Schema response_format for servers that constrain decoding. */
  responseFormat?: Record<string, unknown>;
  /** The seeded stand-in's answer to (system, user). */
  seededAnswer: (system: string, user: string) => string;
  seed?: number;
  concurrency?: number;
}

export async function modelJudgeAgent(settings: AgentSettings, options: ModelJudgeAgentOptions): Promise<Agent> {
  if (settings.kind === 'seeded') return seededJudgeAgent(options.seededAnswer);
  const pinned = settings.kind === 'openai' ? { temperature: 0, maxTokens: options.maxTokens, responseFormat: options.responseFormat } : {};
  return createAgent(settings, { seed: options.seed, concurrency: options.concurrency, ...pinned });
}
