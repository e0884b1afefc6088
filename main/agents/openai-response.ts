// Turns one chat-completions answer into a TurnResult: native tool_calls (or Qwen/Hermes <tool_call> blocks),
// arguments parsed and checked to be JSON objects. The answer is untrusted: anything malformed is an agent error.
import type { ToolCall, TurnResult } from './agent-types';

/** A malformed answer from the model or server; the rollout loop records it as an agent error. */
export class OpenAiAgentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OpenAiAgentError';
  }
}

type Obj = Record<string, unknown>;

const isObject = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);

function parseArguments(raw: unknown, where: string): Record<string, unknown> {
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) return {};
  if (isObject(raw)) return raw;
  if (typeof raw !== 'string') throw new OpenAiAgentError(`${where}: arguments must be a JSON object string (got ${Array.isArray(raw) ? 'an array' : typeof raw})`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    throw new OpenAiAgentError(`${where}: arguments are not valid JSON (${(error as Error).message}): ${raw.slice(0, 120)}`);
  }
  if (!isObject(parsed)) throw new OpenAiAgentError(`${where}: arguments must be a JSON object, got ${Array.isArray(parsed) ? 'an array' : JSON.stringify(parsed)?.slice(0, 60)}`);
  return parsed;
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((part) => (isObject(part) && typeof part.text === 'string' ? part.text : '')).join('');
  }
  return '';
}

const THINK = /<think>[\s\S]*?(<\/think>|$)/g;
const TOOL_CALL_BLOCK = /<tool_call>\s*([\s\S]*?)\s*(<\/tool_call>|$)/g;

function markupCalls(text: string): { calls: ToolCall[]; rest: string } {
  const calls: ToolCall[] = [];
  const rest = text.replace(TOOL_CALL_BLOCK, (_match, body: string) => {
    const where = `tool call ${calls.length} in the reply text`;
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.replace(/,\s*,/g, ','));
    } catch (error) {
      throw new OpenAiAgentError(`${where} is not valid JSON (${(error as Error).message}): ${body.slice(0, 120)}`);
    }
    if (!isObject(parsed)) throw new OpenAiAgentError(`${where} must be a JSON object`);
    const name = parsed.name ?? parsed.tool;
    if (typeof name !== 'string' || !name) throw new OpenAiAgentError(`${where} has no tool name`);
    calls.push({ id: `call_${calls.length}`, name, arguments: parseArguments(parsed.arguments ?? parsed.args, `${where} ("${name}")`) });
    return '';
  });
  return { calls, rest };
}

function nativeCalls(raw: unknown): ToolCall[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw new OpenAiAgentError('message.tool_calls must be a list');
  return raw.map((call, index) => {
    const fn = isObject(call) ? call.function : undefined;
    const name = isObject(fn) ? fn.name : undefined;
    if (typeof name !== 'string' || !name) throw new OpenAiAgentError(`tool call ${index} has no function.name`);
    const id = isObject(call) && typeof call.id === 'string' && call.id ? call.id : `call_${index}`;
    return { id, name, arguments: parseArguments((fn as Obj).arguments, `tool call ${index} ("${name}")`) };
  });
}

function usageOf(raw: unknown): TurnResult['usage'] {
  if (!isObject(raw)) return undefined;
  const input = raw.prompt_tokens ?? raw.input_tokens;
  const output = raw.completion_tokens ?? raw.output_tokens;
  if (typeof input !== 'number' || typeof output !== 'number') return undefined;
  return { input_tokens: input, output_tokens: output };
}

export function parseChatCompletion(body: unknown): TurnResult {
  const choice = isObject(body) && Array.isArray(body.choices) ? body.choices[0] : undefined;
  const message = isObject(choice) ? choice.message : undefined;
  if (!isObject(message)) {
    const error = isObject(body) && isObject(body.error) ? `: ${String(body.error.message ?? '')}` : '';
    throw new OpenAiAgentError(`the server's answer has no choices[0].message${error}`);
  }
  let text = contentText(message.content).replace(THINK, '');
  let toolCalls = nativeCalls(message.tool_calls);
  if (toolCalls.length === 0 && text.includes('<tool_call>')) {
    const found = markupCalls(text);
    toolCalls = found.calls;
    text = found.rest;
  }
  text = text.trim();
  const raw = (choice as Obj).finish_reason;
  const finishReason: TurnResult['finishReason'] =
    raw === 'length' ? 'length' : toolCalls.length > 0 || raw === 'tool_calls' || raw === 'function_call' ? 'tool' : 'stop';
  return { text, toolCalls, finishReason, usage: usageOf((body as Obj).usage) };
}
