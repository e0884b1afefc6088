// The model judge of judge_pairs (docs/judges-rubric-pairwise.md): two replies to one request shown as A and B,
// asked for a winner or a tie. One question per call; the caller (judge_pairs) asks again with A and B swapped.
// It runs like the rubric and Likert judges: the judge's agent at temperature 0, a per-question deadline that
// cancels the request, and a failure (timeout, error, a tool call) kept as that question's reason.
import { createHash } from 'node:crypto';
import type { AgentSettings } from '../../shared/schema/run-settings';
import type { PairJudge } from '../../shared/judging/pairwise';
import type { Agent } from '../agents/agent-types';
import { askJudgeModel } from './ask-model';
import { judgePayload } from './llm-payload';
import { LLM_JUDGE_MAX_TOKENS, LLM_JUDGE_TIMEOUT_MS } from './llm-judge';
import { modelJudgeAgent } from './model-judge-agent';
import { seededDraw } from './seeded-judge-agent';

type Obj = Record<string, unknown>;

/** How much of the request the judge is shown. */
export const PAIR_REQUEST_CHARS = 4000;

export const PAIRWISE_PROMPT = [
  'Two replies from an AI agent to the same request are shown as A and B, each a JSON record of its tool calls, their results and its final message.',
  'Say which one served the user better: the right tools used, a final message that is true to what the tools returned, nothing invented, no needless steps.',
  'Do not let length decide: a short reply that does the job beats a long one. When both are equally good or equally bad, answer tie.',
  'Reply with one JSON object only: {"winner": "A" | "B" | "tie", "reason": "<one sentence>"}.',
].join('\n');

const sha12 = (text: string) => createHash('sha256').update(text.trim()).digest('hex').slice(0, 12);

/** The user message: the request once, then each side's judge record. */
export function pairMessage(a: Obj, b: Obj): string {
  const request = String(a.prompt || b.prompt || '').slice(0, PAIR_REQUEST_CHARS);
  return JSON.stringify({ request, A: JSON.parse(judgePayload(a)), B: JSON.parse(judgePayload(b)) });
}

const RESPONSE_FORMAT = {
  type: 'json_schema',
  json_schema: {
    name: 'pairwise_verdict',
    strict: true,
    schema: { type: 'object', properties: { winner: { type: 'string', enum: ['A', 'B', 'tie'] }, reason: { type: 'string' } }, required: ['winner', 'reason'], additionalProperties: false },
  },
};

/** The dry run's answer: a draw over what it was shown, so the two orders of a pair can disagree. */
export function seededPairAnswer(_system: string, user: string): string {
  const u = seededDraw(user, 'pairwise');
  const winner = u < 0.4 ? 'A' : u < 0.8 ? 'B' : 'tie';
  return JSON.stringify({ winner, reason: 'seeded dry run: a winner drawn from the records, not read from them' });
}

export interface PairwiseModelJudge {
  name: string;
  judge: PairJudge;
  /** Questions asked so far. */
  asked(): number;
  close(): Promise<void>;
}

export function createPairwiseJudge(agent: Agent, options: { timeoutMs?: number; signal?: AbortSignal } = {}): PairwiseModelJudge {
  const timeoutMs = options.timeoutMs ?? LLM_JUDGE_TIMEOUT_MS;
  const name = `pairwise:${agent.modelVersion}@${sha12(PAIRWISE_PROMPT)}`;
  let asked = 0;
  const judge: PairJudge = async (a, b) => {
    asked++;
    const answer = await askJudgeModel(agent, PAIRWISE_PROMPT, pairMessage(a, b), { timeoutMs, signal: options.signal, row: a });
    // A failure is the question's reason (judge_pairs keeps it); the text is parsed by parse_pairwise.
    if (!answer.ok) return { winner: null, reason: `${answer.status}: ${JSON.stringify(answer.meta)}` };
    return answer.text;
  };
  return { name, judge, asked: () => asked, close: () => agent.close() };
}

export async function loadPairwiseJudge(settings: AgentSettings, options: { timeoutMs?: number; concurrency?: number; signal?: AbortSignal } = {}): Promise<PairwiseModelJudge> {
  const agent = await modelJudgeAgent(settings, { maxTokens: LLM_JUDGE_MAX_TOKENS, responseFormat: RESPONSE_FORMAT, seededAnswer: seededPairAnswer, concurrency: options.concurrency });
  return createPairwiseJudge(agent, options);
}
