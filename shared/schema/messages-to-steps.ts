// OpenAI / Anthropic chat messages -> SDK steps (sdk-semantics §8.1, `_steps_from_messages`).
type Obj = Record<string, unknown>;

interface ToolStep extends Obj {
  tool: string;
  arguments: unknown;
  result?: unknown;
}

function isObj(value: unknown): value is Obj {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function decodeJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((block) => isObj(block) && block.type === 'text' && typeof block.text === 'string')
    .map((block) => (block as Obj).text as string)
    .join('\n');
}

export function convertMessagesToSteps(messages: unknown[]): Obj[] {
  const steps: Obj[] = [];
  const byId = new Map<string, ToolStep>();
  const calls: ToolStep[] = [];

  const bindResult = (result: unknown, id: unknown, name: unknown): void => {
    let target = typeof id === 'string' ? byId.get(id) : undefined;
    if (target && 'result' in target) target = undefined;
    target ??= calls.find((call) => !('result' in call) && call.tool === name);
    target ??= calls.find((call) => !('result' in call));
    if (target) target.result = result;
    else steps.push({ tool: typeof name === 'string' ? name : '', arguments: {}, result });
  };

  const addCall = (name: unknown, args: unknown, id: unknown): void => {
    const step: ToolStep = { tool: typeof name === 'string' ? name : String(name ?? ''), arguments: args ?? {} };
    steps.push(step);
    calls.push(step);
    if (typeof id === 'string') byId.set(id, step);
  };

  for (const message of messages) {
    if (!isObj(message)) continue;
    const role = message.role;
    const content = message.content;
    if (role === 'user') {
      const blocks = Array.isArray(content) ? content : [];
      for (const block of blocks) {
        if (!isObj(block) || block.type !== 'tool_result') continue;
        let result = decodeJson(Array.isArray(block.content) ? textOf(block.content) : block.content);
        if (block.is_error) result = { ...(isObj(result) ? result : { content: result }), error: true, status: 'error' };
        bindResult(result, block.tool_use_id, undefined);
      }
      const text = textOf(content);
      if (text) steps.push({ user: text });
    } else if (role === 'assistant') {
      if (Array.isArray(content)) {
        for (const block of content) {
          if (isObj(block) && block.type === 'tool_use') addCall(block.name, block.input ?? {}, block.id);
        }
      }
      if (Array.isArray(message.tool_calls)) {
        for (const call of message.tool_calls) {
          if (!isObj(call)) continue;
          const fn = isObj(call.function) ? call.function : call;
          const args = decodeJson(fn.arguments);
          addCall(fn.name, isObj(args) || Array.isArray(args) ? args : args ?? {}, call.id);
        }
      }
      const text = textOf(content);
      if (text) steps.push({ text });
    } else if (role === 'tool') {
      bindResult(decodeJson(content), message.tool_call_id ?? message.tool_use_id, message.name);
    }
  }
  return steps;
}
