// The `seeded` agent: no model, deterministic from the seed. Calls the task's tools with arguments read
// from the prompt and answers from the results; on a share of rollouts it misbehaves (sdk-semantics §4.2).
import { createHash } from 'node:crypto';
import type { Agent, ChatMessage, ToolCall, ToolSchema, TurnRequest, TurnResult } from './agent-types';
import { argumentsFromPrompt, inventArguments } from './prompt-arguments';

export const SEEDED_MISBEHAVIORS = ['skip_tool', 'invented_argument', 'claimed_success', 'refusal', 'empty_reply'] as const;
export type SeededMisbehavior = (typeof SEEDED_MISBEHAVIORS)[number];

/** A turn of the seeded agent also says which misbehaviour it played (copied onto the row as `seeded`). */
export type SeededTurnResult = TurnResult & { seeded: string[] };

export interface SeededAgentOptions {
  /** Share of rollouts that misbehave, 0..1 (default 0.3). */
  misbehaveRate?: number;
}

const FAULT_STATUSES = new Set(['error', 'timeout', 'not_found', 'denied', 'malformed']);

/** Two uniform draws in [0, 1) from the rollout's identity. */
function draws(seed: number, scenarioId: string, rolloutIndex: number, evalRun: number): [number, number] {
  const digest = createHash('sha256').update(`${seed}\x1f${scenarioId}\x1f${rolloutIndex}\x1f${evalRun}`).digest();
  return [digest.readUInt32BE(0) / 2 ** 32, digest.readUInt32BE(4) / 2 ** 32];
}

export function chooseMisbehavior(rate: number, seed: number, scenarioId: string, rolloutIndex: number, evalRun: number): SeededMisbehavior | null {
  const [u, v] = draws(seed, scenarioId, rolloutIndex, evalRun);
  if (u >= rate) return null;
  return SEEDED_MISBEHAVIORS[Math.floor(v * SEEDED_MISBEHAVIORS.length)];
}

/** The tools the ask names (by name or by its words), else the first tool. */
function toolsFor(prompt: string, tools: ToolSchema[]): ToolSchema[] {
  const lower = prompt.toLowerCase();
  const named = tools.filter((tool) => {
    const name = tool.function.name.toLowerCase();
    return lower.includes(name) || lower.includes(name.replace(/[_.-]+/g, ' '));
  });
  return named.length > 0 ? named : tools.slice(0, 1);
}

function describe(result: unknown): string {
  if (typeof result === 'string') return result;
  if (result && typeof result === 'object' && !Array.isArray(result)) {
    return Object.entries(result as Record<string, unknown>)
      .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
      .join('; ');
  }
  return JSON.stringify(result);
}

/** A tool message's content as the result it carried: JSON when it parses, else the plain string ("ok"). */
function resultOf(content: string): unknown {
  try {
    return JSON.parse(content) as unknown;
  } catch {
    return content;
  }
}

function faultOf(result: unknown): string | null {
  if (result === null || (typeof result === 'string' && result.trim() === '')) return 'an empty result';
  if (typeof result === 'object' && !Array.isArray(result)) {
    const obj = result as Record<string, unknown>;
    if (Object.keys(obj).length === 0) return 'an empty result';
    if (typeof obj.status === 'string' && FAULT_STATUSES.has(obj.status)) return `${obj.status}${obj.reason ? ` (${String(obj.reason)})` : ''}`;
  }
  return null;
}

function finalAnswer(messages: ChatMessage[]): string {
  const results = messages.filter((m): m is Extract<ChatMessage, { role: 'tool' }> => m.role === 'tool');
  const parts: string[] = [];
  for (const message of results) {
    const tool = message.name ?? 'the tool';
    const result = resultOf(message.content);
    const fault = faultOf(result);
    if (fault) parts.push(`I called ${tool} but it returned ${fault}, so I could not complete that part; please try again later.`);
    else parts.push(`${tool} returned: ${describe(result)}.`);
  }
  return parts.join(' ');
}

export function createSeededAgent(options: SeededAgentOptions = {}): Agent {
  const rate = options.misbehaveRate ?? 0.3;
  return {
    modelVersion: 'seeded',
    sampling: null,
    async turn(request: TurnRequest): Promise<SeededTurnResult> {
      const { rollout, messages, tools } = request;
      const prompt = messages.find((m) => m.role === 'user')?.content ?? '';
      const behavior = chooseMisbehavior(rate, rollout.seed, rollout.scenarioId, rollout.rolloutIndex, rollout.evalRun);
      const seeded = behavior ? [behavior] : [];
      const say = (text: string): SeededTurnResult => ({ text, toolCalls: [], finishReason: 'stop', seeded });
      if (behavior === 'refusal') return say("I'm sorry, but I can't help with that request.");
      if (behavior === 'empty_reply') return say('');
      if (behavior === 'claimed_success') return say("Done! I've taken care of that for you and everything went through.");
      if (behavior === 'skip_tool' || tools.length === 0) {
        return say(tools.length === 0 ? `Here is my answer: ${prompt.trim().slice(0, 200)}` : 'I believe everything is fine with that; no need to check.');
      }
      const plan = toolsFor(prompt, tools);
      const calls = messages.filter((m) => m.role === 'assistant' && m.tool_calls && m.tool_calls.length > 0).length;
      if (calls < plan.length) {
        const tool = plan[calls].function;
        let args = argumentsFromPrompt(prompt, tool.parameters);
        if (behavior === 'invented_argument') args = inventArguments(args, tool.parameters, rollout.seed + rollout.rolloutIndex);
        const call: ToolCall = { id: `call_${calls}`, name: tool.name, arguments: args };
        return { text: calls === 0 ? `Let me check that with ${tool.name}.` : '', toolCalls: [call], finishReason: 'tool', seeded };
      }
      return say(finalAnswer(messages));
    },
    async close() {},
  };
}
