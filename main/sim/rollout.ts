// One rollout: agent turns until a final reply or max_turns, tool calls answered by the task's world,
// every step recorded, the row built in the row-v1 shape (sdk-semantics §3.4, §4.4, §1.4).
import { createHash } from 'node:crypto';
import { conversation } from '../../shared/schema/conversation';
import { extraTaskKeys, type Task } from '../../shared/schema/task';
import type { Agent, ChatMessage, TurnResult } from '../agents/agent-types';
import { createToolWorld, faultPlan } from './tool-world';

type Obj = Record<string, unknown>;

export const SYSTEM_PROMPT_HEAD_CHARS = 120;
export const TOOL_SCHEMA_SPAN_CHARS = 500;
export type LostReason = 'agent_error' | 'empty_reply' | 'tool_markup';

export interface RolloutOptions {
  rolloutIndex: number;
  evalRun: number;
  /** How many eval runs the run has: eval_run is stamped only when above 1. */
  runs: number;
  /** The run's seed (written to the row). */
  seed: number;
  /** The seed the agent sees for this attempt (differs on a re-roll so a deterministic agent can change its mind). */
  attemptSeed: number;
  maxTurns: number;
  signal: AbortSignal;
}

const lineageCache = new WeakMap<Task, Obj>();

/** sha256 of the deploy prompt (first 16 hex), its head and length: the same for every rollout of a task. */
function promptLineage(task: Task): Obj {
  let cached = lineageCache.get(task);
  if (!cached) {
    const systemPrompt = task.system_prompt ?? '';
    cached = {
      system_prompt_sha: createHash('sha256').update(systemPrompt).digest('hex').slice(0, 16),
      system_prompt_head: systemPrompt.slice(0, SYSTEM_PROMPT_HEAD_CHARS),
      system_prompt_chars: systemPrompt.length,
    };
    lineageCache.set(task, cached);
  }
  return cached;
}

function toolContent(result: unknown): string {
  return typeof result === 'string' ? result : JSON.stringify(result);
}

/** sdk-semantics §3.5: why a finished rollout is unusable, or null. */
export function unusableReason(row: { final_text: string; steps: Obj[] }): LostReason | null {
  const text = row.final_text;
  if (text.trimStart().toLowerCase().startsWith('<agent error')) return 'agent_error';
  if (text.trim() === '') return 'empty_reply';
  const texts = [text, ...row.steps.map((step) => (typeof step.text === 'string' ? step.text : ''))];
  if (texts.some(hasToolMarkup)) return 'tool_markup';
  return null;
}

export function hasToolMarkup(text: string): boolean {
  if (text.includes('<tool_call>') || text.includes('</tool_call>')) return true;
  const name = text.search(/"name"\s*:\s*"/);
  if (name < 0) return false;
  const window = text.slice(Math.max(0, name - TOOL_SCHEMA_SPAN_CHARS), name + TOOL_SCHEMA_SPAN_CHARS);
  return /"description"\s*:/.test(window) && /"parameters"\s*:/.test(window);
}

function finishReason(explicit: TurnResult['finishReason'] | undefined, finalText: string, steps: Obj[]): string {
  if (explicit === 'length' || explicit === 'error') return explicit;
  if (finalText.startsWith('<agent error:')) return 'error';
  if (steps.some((step) => step.truncated === true)) return 'length';
  if (finalText === '' && steps.length > 0 && 'tool' in steps[steps.length - 1]) return 'tool';
  return 'stop';
}

export interface RolloutResult {
  row: Obj;
  unusable: LostReason | null;
  /** What the agent threw, when it did (the row then carries the agent-error sentinel). */
  error?: unknown;
}

export async function runRollout(agent: Agent, task: Task, options: RolloutOptions): Promise<RolloutResult> {
  const world = createToolWorld(task);
  const messages: ChatMessage[] = [];
  if (task.system_prompt) messages.push({ role: 'system', content: task.system_prompt });
  messages.push({ role: 'user', content: task.prompt });
  let steps: Obj[] = [];
  let finalText = '';
  let lastSpoken = '';
  let explicitFinish: TurnResult['finishReason'];
  let seeded: string[] | undefined;
  let inputTokens = 0;
  let outputTokens = 0;
  let usageSeen = false;
  let agentError: unknown;
  try {
    for (let turn = 0; turn < options.maxTurns; turn++) {
      const result = await agent.turn({
        messages,
        tools: task.tools,
        rollout: { scenarioId: task.scenario_id, rolloutIndex: options.rolloutIndex, evalRun: options.evalRun, seed: options.attemptSeed, turn },
        signal: options.signal,
      });
      const marks = (result as TurnResult & { seeded?: string[] }).seeded;
      if (Array.isArray(marks)) seeded = [...new Set([...(seeded ?? []), ...marks])];
      const sampling: Obj = {};
      if (result.usage) {
        usageSeen = true;
        inputTokens += result.usage.input_tokens;
        outputTokens += result.usage.output_tokens;
        sampling.input_tokens = result.usage.input_tokens;
        sampling.output_tokens = result.usage.output_tokens;
      }
      if (result.finishReason === 'length') sampling.truncated = true;
      explicitFinish = result.finishReason;
      const text = result.text ?? '';
      if (text.trim() !== '') lastSpoken = text;
      if (result.toolCalls.length === 0) {
        finalText = text;
        if (Object.keys(sampling).length > 0) steps.push({ text, ...sampling });
        break;
      }
      messages.push({
        role: 'assistant',
        content: text === '' ? null : text,
        tool_calls: result.toolCalls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.arguments) } })),
      });
      result.toolCalls.forEach((call, i) => {
        const outcome = world.call(call.name, call.arguments);
        const step: Obj = { tool: call.name, arguments: call.arguments, result: outcome.result };
        if (i === 0) Object.assign(step, text !== '' ? { text } : {}, sampling);
        steps.push(step);
        messages.push({ role: 'tool', tool_call_id: call.id, name: call.name, content: toolContent(outcome.result) });
      });
      if (turn === options.maxTurns - 1) finalText = lastSpoken;
    }
  } catch (error) {
    agentError = error;
    const err = error instanceof Error ? error : new Error(String(error));
    steps = [];
    finalText = `<agent error: ${err.name || 'Error'}: ${err.message}>`;
    explicitFinish = 'error';
  }
  const lineage: Obj = { ...promptLineage(task) };
  if (options.runs > 1) {
    lineage.eval_run = options.evalRun;
    if (options.evalRun >= 1) lineage.replayed_from_run = 0;
  }
  const row: Obj = {
    schema_version: '1',
    scenario_id: task.scenario_id,
    rollout_index: options.rolloutIndex,
    prompt: task.prompt,
    steps,
    final_text: finalText,
  };
  row.messages = conversation(row);
  row.sampling = agent.sampling;
  row.finish_reason = finishReason(explicitFinish, finalText, steps);
  if (usageSeen) row.usage = { input_tokens: inputTokens, output_tokens: outputTokens };
  row.model_version = agent.modelVersion;
  row.policy_version = `${agent.modelVersion}@${lineage.system_prompt_sha as string}`;
  row.lineage = lineage;
  row.reward = null;
  row.seed = options.seed;
  const plan = faultPlan(task);
  if (plan) row.faults = plan;
  if (task.tools.length > 0) row.tools = task.tools;
  // The world rides along so that this row, exported, is again a faithful pinned task (sdk-semantics §3.6).
  if (Object.keys(task.world).length > 0) row.world = task.world;
  if (task.category !== undefined) row.category = task.category;
  // The task's own extra keys (expected, metadata, ...) reach the judge beside the reference, and, like it, are never exported.
  const privileged: Obj = { ...extraTaskKeys(task) };
  if (task.reference !== undefined) privileged.reference = task.reference;
  if (task.rubric !== undefined) privileged.rubric = task.rubric;
  if (Object.keys(privileged).length > 0) row.privileged = privileged;
  if (seeded !== undefined) row.seeded = seeded;
  const result: RolloutResult = { row, unusable: unusableReason({ final_text: finalText, steps }) };
  if (agentError !== undefined) result.error = agentError;
  return result;
}
