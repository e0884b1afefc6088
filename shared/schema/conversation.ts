// conversation(row) and reply_length(row): stats-semantics §3.3 and §3.4.
type Obj = Record<string, unknown>;

export interface ChatMessage {
  role: string;
  content: string;
  tool_calls?: Array<{ name: string; arguments: unknown }>;
  name?: string;
}

function isObj(value: unknown): value is Obj {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Python's json.dumps with its default separators (", " and ": "), so byte counts agree with the SDK. */
export function pythonJsonDumps(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return JSON.stringify(value).replace(/[\u0080-\uffff]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return 'NaN';
    if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity';
    return Number.isInteger(value) && !Object.is(value, -0) ? String(value) : String(value);
  }
  if (Array.isArray(value)) return '[' + value.map(pythonJsonDumps).join(', ') + ']';
  if (typeof value === 'object') {
    return '{' + Object.entries(value as Obj).map(([k, v]) => pythonJsonDumps(k) + ': ' + pythonJsonDumps(v)).join(', ') + '}';
  }
  return JSON.stringify(String(value));
}

const isBlank = (text: string): boolean => text.trim() === '';

/** `toolContent: false` skips encoding tool results (reply_length never reads them). */
export function conversation(row: Obj, options: { toolContent?: boolean } = {}): ChatMessage[] {
  const withToolContent = options.toolContent ?? true;
  const messages: ChatMessage[] = [];
  if (row.opener) messages.push({ role: 'assistant', content: String(row.opener) });
  if (row.prompt) messages.push({ role: 'user', content: String(row.prompt) });
  const steps = Array.isArray(row.steps) ? row.steps : [];
  for (const step of steps) {
    if (!isObj(step)) continue;
    if (step.user) messages.push({ role: 'user', content: String(step.user) });
    else if (step.tool) {
      const text = typeof step.text === 'string' ? step.text : '';
      messages.push({ role: 'assistant', content: text, tool_calls: [{ name: String(step.tool), arguments: step.arguments ?? {} }] });
      const result = step.result;
      messages.push({ role: 'tool', name: String(step.tool), content: !withToolContent ? '' : typeof result === 'string' ? result : pythonJsonDumps(result) });
    } else if (typeof step.text === 'string' && step.text !== '') {
      messages.push({ role: 'assistant', content: step.text });
    }
  }
  const finalText = typeof row.final_text === 'string' ? row.final_text : '';
  if (!finalText.startsWith('<agent error')) {
    while (messages.length > 1 && messages[messages.length - 1].role === 'user') messages.pop();
  }
  if (finalText) {
    const already = messages.some((m) => m.role === 'assistant' && !isBlank(m.content) && m.content === finalText);
    if (!already) {
      const last = messages[messages.length - 1];
      if (last && last.role === 'assistant' && isBlank(last.content)) last.content = finalText;
      else if (!last || last.role !== 'assistant') messages.push({ role: 'assistant', content: finalText });
    }
  }
  return messages;
}

/** Characters the agent wrote (§3.3); Python counts code points, so do we. */
export function replyLength(row: Obj): number {
  const carried = Array.isArray(row.messages) ? (row.messages as unknown[]).filter(isObj) : [];
  const messages: Array<{ role?: unknown; content?: unknown }> = carried.length > 0 ? carried : conversation(row, { toolContent: false });
  let total = 0;
  let lastContent: string | undefined;
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    const content = message.content === null || message.content === undefined ? '' : typeof message.content === 'string' ? message.content : pythonJsonDumps(message.content);
    total += codePointLength(content);
    lastContent = content;
  }
  const finalText = typeof row.final_text === 'string' ? row.final_text : '';
  if (finalText !== '' && finalText !== lastContent) total += codePointLength(finalText);
  return total;
}

function codePointLength(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) count--;
  }
  return count;
}
