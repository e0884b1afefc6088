// `--judge likert:AGENT@LO-HI`: a model rates each row on lo..hi; the one verdict normaliser maps the rating to
// reward = (rating - lo) / (hi - lo) and keeps it in judge_meta (sdk-semantics §5.1, run_judge(scale=)).
import { createHash } from 'node:crypto';
import { isObject } from '../../shared/stats/keys';
import type { AgentSettings } from '../../shared/schema/run-settings';
import type { Agent } from '../agents/agent-types';
import { askJudgeModel } from './ask-model';
import type { JudgeVerdict, RowJudge } from './judge-types';
import { judgePayload } from './llm-payload';
import { LLM_JUDGE_MAX_TOKENS, LLM_JUDGE_TIMEOUT_MS, readRubricFile } from './llm-judge';
import { topLevelObjects } from './llm-verdict';
import { batchOneByOne } from './micro-batch';
import { modelJudgeAgent } from './model-judge-agent';
import { failed, normalizeJudgeResult } from './normalize-verdict';
import { seededDraw } from './seeded-judge-agent';

type Scale = readonly [number, number];

const sha12 = (text: string) => createHash('sha256').update(text.trim()).digest('hex').slice(0, 12);
const whole = ([lo, hi]: Scale) => Number.isInteger(lo) && Number.isInteger(hi);

export function likertSystemPrompt(scale: Scale, rubric: string | null): string {
  const [lo, hi] = scale;
  const number = whole(scale) ? `a whole number from ${lo} to ${hi}` : `a number from ${lo} to ${hi}`;
  return [
    'You rate one rollout of an AI agent from the JSON record you are given: its tool calls with their results, and its final message.',
    rubric ? `Rate it against this rubric.\n\n${rubric.trim()}\n` : 'Rate how well it served the user: correct tool use, a truthful final message, nothing invented.',
    'A claim the tools did not return earns nothing; an announced tool call is not a call (tools_called lists the real ones). The length of the reply must not move the rating.',
    `Reason first, in one sentence. Reply with only the JSON {"reason": "...", "rating": N}, where N is ${number}: ${lo} the worst, ${hi} the best.`,
  ].join('\n');
}

/** What the model's reply gives the normaliser: the last complete JSON object's rating (or score) and reason only. */
export function likertAnswer(text: string): Record<string, unknown> | { problem: string } {
  const spans = topLevelObjects(text.replace(/<think>[\s\S]*?(<\/think>|$)/g, ''));
  if (spans.length === 0) return { problem: 'the reply holds no complete JSON object' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(spans[spans.length - 1]);
  } catch (error) {
    return { problem: `the rating is not valid JSON: ${(error as Error).message}` };
  }
  if (!isObject(parsed)) return { problem: 'the rating is not a JSON object' };
  // Only the keys a rating has: a model cannot write markers, judge_meta or anything else onto the row.
  const picked: Record<string, unknown> = {};
  for (const key of ['rating', 'score', 'reason']) if (Object.hasOwn(parsed, key)) picked[key] = parsed[key];
  return picked;
}

function likertResponseFormat(scale: Scale): Record<string, unknown> {
  const [lo, hi] = scale;
  const rating = whole(scale) && hi - lo <= 20 ? { type: 'integer', enum: Array.from({ length: hi - lo + 1 }, (_, i) => lo + i) } : { type: 'number', minimum: lo, maximum: hi };
  const schema = { type: 'object', properties: { reason: { type: 'string' }, rating }, required: ['reason', 'rating'], additionalProperties: false };
  return { type: 'json_schema', json_schema: { name: 'likert_rating', strict: true, schema } };
}

/** The dry run's rating: a draw over what it was shown, spread over the scale's steps. */
export function seededLikertAnswer(scale: Scale): (system: string, user: string) => string {
  const [lo, hi] = scale;
  return (_system, user) => {
    const u = seededDraw(user, 'likert');
    const rating = whole(scale) ? lo + Math.floor(u * (hi - lo + 1)) : Math.round((lo + u * (hi - lo)) * 100) / 100;
    return JSON.stringify({ reason: 'seeded dry run: a rating drawn from the record, not read from it', rating });
  };
}

export interface LikertJudgeOptions {
  agent: Agent;
  scale: Scale;
  rubric?: string | null;
  timeoutMs?: number;
}

export function createLikertJudge(options: LikertJudgeOptions): RowJudge {
  const { agent, scale } = options;
  if (!(scale[1] > scale[0])) throw new Error(`a Likert scale needs hi > lo (got ${scale[0]}-${scale[1]})`);
  const timeoutMs = options.timeoutMs ?? LLM_JUDGE_TIMEOUT_MS;
  const system = likertSystemPrompt(scale, options.rubric ?? null);
  const name = `likert:${agent.modelVersion}@${sha12(system)}`;
  const judge = async (row: Record<string, unknown>, signal?: AbortSignal): Promise<JudgeVerdict> => {
    const meta = { model: agent.modelVersion, version: name };
    const answer = await askJudgeModel(agent, system, judgePayload(row), { timeoutMs, signal, row });
    if (!answer.ok) return failed(name, answer.status, { ...meta, ...answer.meta, scale: [...scale] });
    const read = likertAnswer(answer.text);
    if ('problem' in read) return failed(name, 'invalid_result', { ...meta, problem: read.problem, reply_head: answer.text.slice(0, 200), scale: [...scale] });
    const verdict = normalizeJudgeResult({ ...read, ...meta }, name, scale);
    if (verdict.judge_status !== 'ok') verdict.judge_meta = { ...verdict.judge_meta, ...meta, scale: [...scale], reply_head: answer.text.slice(0, 200) };
    return verdict;
  };
  return { name, judge, judgeBatch: batchOneByOne(judge), close: () => agent.close() };
}

export async function loadLikertJudge(agentSettings: AgentSettings, scale: Scale, rubricFile: string | null, options: { timeoutMs?: number; seed?: number; concurrency?: number }): Promise<RowJudge> {
  if (!(scale[1] > scale[0])) throw new Error(`a Likert scale needs hi > lo (got ${scale[0]}-${scale[1]})`);
  const rubric = rubricFile ? readRubricFile(rubricFile).rubric : null;
  const agent = await modelJudgeAgent(agentSettings, { maxTokens: LLM_JUDGE_MAX_TOKENS, responseFormat: likertResponseFormat(scale), seededAnswer: seededLikertAnswer(scale), seed: options.seed, concurrency: options.concurrency });
  return createLikertJudge({ agent, scale, rubric, timeoutMs: options.timeoutMs });
}
