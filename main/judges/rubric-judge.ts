// `--judge rubric:FILE.json`: a model marks each rubric item true or false (sdk-semantics §5.4); the reward is
// Rubric.score and every item is a marker `rubric:<slug>` on the row (shared/judging/rubric-judge.ts).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { rubricFromDict, RubricError, rubricVersion, type Rubric } from '../../shared/judging/rubric';
import { NO_RUBRIC, RUBRIC_JUDGE_MAX_TOKENS, RUBRIC_JUDGE_SYSTEM, rubricFor, rubricJudgeMessage, rubricJudgeResult } from '../../shared/judging/rubric-judge';
import type { AgentSettings } from '../../shared/schema/run-settings';
import type { Agent } from '../agents/agent-types';
import { askJudgeModel } from './ask-model';
import type { JudgeVerdict, RowJudge } from './judge-types';
import { judgePayload } from './llm-payload';
import { LLM_JUDGE_TIMEOUT_MS } from './llm-judge';
import { batchOneByOne } from './micro-batch';
import { modelJudgeAgent } from './model-judge-agent';
import { failed, normalizeJudgeResult } from './normalize-verdict';
import { seededDraw } from './seeded-judge-agent';

const sha12 = (text: string) => createHash('sha256').update(text.trim()).digest('hex').slice(0, 12);

/** A rubric file: JSON, the SDK's Rubric.to_dict shape ({criteria: [...], source?, domain?, notes?}) or a list of criteria. */
export function readRubricJson(file: string): Rubric {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`could not read rubric ${file}: ${(error as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new Error(`rubric ${file} is not valid JSON: ${(error as Error).message}`);
  }
  try {
    return rubricFromDict(raw);
  } catch (error) {
    if (error instanceof RubricError) throw new Error(`rubric ${file}: ${error.message}`);
    throw error;
  }
}

/** The item count of the rubric the seeded stand-in is shown: the checklist's numbered lines. */
function itemsShown(user: string): number {
  try {
    const checklist = String((JSON.parse(user) as { rubric?: unknown }).rubric ?? '');
    return checklist.split('\n').filter((line) => /^\d+\. /.test(line)).length;
  } catch {
    return 0;
  }
}

/** The dry run's verdicts: each item true or false by a draw over what it was shown. */
export function seededRubricAnswer(_system: string, user: string): string {
  const criteria: Record<string, boolean> = {};
  for (let i = 1; i <= itemsShown(user); i++) criteria[String(i)] = seededDraw(user, `item ${i}`) < 0.6;
  return JSON.stringify({ criteria, reason: 'seeded dry run: verdicts drawn from the record, not read from it' });
}

/** response_format: one boolean per item of a fixed rubric; for rubrics that vary by row, any booleans. */
function rubricResponseFormat(rubric: Rubric | null): Record<string, unknown> {
  const criteria = rubric
    ? { type: 'object', properties: Object.fromEntries(rubric.criteria.map((_, i) => [String(i + 1), { type: 'boolean' }])), required: rubric.criteria.map((_, i) => String(i + 1)), additionalProperties: false }
    : { type: 'object', additionalProperties: { type: 'boolean' } };
  const schema = { type: 'object', properties: { criteria, reason: { type: 'string' } }, required: ['criteria', 'reason'], additionalProperties: false };
  return { type: 'json_schema', json_schema: { name: 'rubric_verdict', strict: rubric !== null, schema } };
}

export interface RubricJudgeOptions {
  agent: Agent;
  /** The rubric every row is judged against; null: each row's privileged.rubric. */
  rubric: Rubric | null;
  timeoutMs?: number;
}

export function createRubricJudge(options: RubricJudgeOptions): RowJudge {
  const { agent, rubric } = options;
  const timeoutMs = options.timeoutMs ?? LLM_JUDGE_TIMEOUT_MS;
  // As the SDK names it: <model>@<sha of the prompt>, the fixed rubric's version folded in (an edit is a new judge).
  const name = `${agent.modelVersion}@${sha12(RUBRIC_JUDGE_SYSTEM + (rubric ? `|rubric:${rubricVersion(rubric)}` : ''))}`;
  const judge = async (row: Record<string, unknown>, signal?: AbortSignal): Promise<JudgeVerdict> => {
    const use = rubricFor(row, rubric);
    if (!use) return normalizeJudgeResult(NO_RUBRIC, name);
    const meta = { model: agent.modelVersion, version: name };
    const answer = await askJudgeModel(agent, RUBRIC_JUDGE_SYSTEM, rubricJudgeMessage(use, judgePayload(row)), { timeoutMs, signal, row });
    if (!answer.ok) return failed(name, answer.status, { ...meta, ...answer.meta, rubric_version: rubricVersion(use) });
    const result = rubricJudgeResult(use, answer.text);
    const verdict = normalizeJudgeResult({ ...result, ...meta }, name);
    if (result.reward === null) verdict.judge_meta = { ...verdict.judge_meta, ...meta, rubric_version: rubricVersion(use), reply_head: answer.text.slice(0, 200) };
    return verdict;
  };
  return {
    name,
    judge,
    judgeBatch: batchOneByOne(judge),
    close: () => agent.close(),
  };
}

export async function loadRubricJudge(agentSettings: AgentSettings, rubricFile: string | null, options: { timeoutMs?: number; seed?: number; concurrency?: number }): Promise<RowJudge> {
  const rubric = rubricFile ? readRubricJson(rubricFile) : null;
  const agent = await modelJudgeAgent(agentSettings, { maxTokens: RUBRIC_JUDGE_MAX_TOKENS, responseFormat: rubricResponseFormat(rubric), seededAnswer: seededRubricAnswer, seed: options.seed, concurrency: options.concurrency });
  return createRubricJudge({ agent, rubric, timeoutMs: options.timeoutMs });
}
