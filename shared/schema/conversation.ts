// conversation(row) and reply_length(row): stats-semantics §3.3 and §3.4.
import { pyStr, pyTruthy } from '../stats/keys';
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

export function conversation(row: Obj): ChatMessage[] {
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
      messages.push({ role: 'tool', name: String(step.tool), content: typeof result === 'string' ? result : pythonJsonDumps(result) });
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
  const turns = carried.length > 0 ? carriedTurns(carried) : conversationTurns(row);
  let total = 0;
  let lastContent: string | undefined;
  for (let i = 0; i < turns.roles.length; i++) {
    if (turns.roles[i] !== ASSISTANT) continue;
    total += codePointLength(turns.contents[i]);
    lastContent = turns.contents[i];
  }
  // The SDK reads str(final_text or ""): a number there counts its digits.
  const finalText = typeof row.final_text === 'string' ? row.final_text : pyTruthy(row.final_text) ? pyStr(row.final_text) : '';
  if (finalText !== '' && finalText !== lastContent) total += codePointLength(finalText);
  return total;
}

// The turns of a conversation as two parallel lists, without a message object per turn: reply_length runs on
// every row of every import, and these are what it reads. Only assistant turns' contents matter.
const ASSISTANT = 0;
const USER = 1;
const OTHER = 2;

interface Turns {
  roles: number[];
  contents: string[];
}

function carriedTurns(messages: Obj[]): Turns {
  const turns: Turns = { roles: [], contents: [] };
  for (const message of messages) {
    const assistant = message.role === 'assistant';
    const content = message.content;
    turns.roles.push(assistant ? ASSISTANT : OTHER);
    turns.contents.push(!assistant || content === null || content === undefined ? '' : typeof content === 'string' ? content : pythonJsonDumps(content));
  }
  return turns;
}

/** conversation(row) reduced to roles and contents (a tool's result left empty): the same turns, in order. */
function conversationTurns(row: Obj): Turns {
  const roles: number[] = [];
  const contents: string[] = [];
  const push = (role: number, content: string) => {
    roles.push(role);
    contents.push(content);
  };
  if (row.opener) push(ASSISTANT, String(row.opener));
  if (row.prompt) push(USER, String(row.prompt));
  const steps = Array.isArray(row.steps) ? row.steps : [];
  for (const step of steps) {
    if (!isObj(step)) continue;
    if (step.user) push(USER, String(step.user));
    else if (step.tool) {
      push(ASSISTANT, typeof step.text === 'string' ? step.text : '');
      push(OTHER, ''); // the tool's result
    } else if (typeof step.text === 'string' && step.text !== '') push(ASSISTANT, step.text);
  }
  const finalText = typeof row.final_text === 'string' ? row.final_text : '';
  if (!finalText.startsWith('<agent error')) {
    while (roles.length > 1 && roles[roles.length - 1] === USER) {
      roles.pop();
      contents.pop();
    }
  }
  if (finalText) {
    const already = roles.some((role, i) => role === ASSISTANT && !isBlank(contents[i]) && contents[i] === finalText);
    if (!already) {
      const last = roles.length - 1;
      if (last >= 0 && roles[last] === ASSISTANT && isBlank(contents[last])) contents[last] = finalText;
      else if (last < 0 || roles[last] !== ASSISTANT) push(ASSISTANT, finalText);
    }
  }
  return { roles, contents };
}

function codePointLength(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) count--;
  }
  return count;
}
