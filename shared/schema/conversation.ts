// conversation(row) and reply_length(row): stats-semantics §3.3 and §3.4.
import { pyStr, pyTruthy } from '../stats/keys';
import { pyIsBlank } from '../text/py-text';
import { pyDumps } from './py-json';

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
  return pyDumps(value);
}

// Python's str.strip() also strips U+001C-U+001F and U+0085 (and keeps U+FEFF): blank as the SDK reads it.
const isBlank = (text: string): boolean => pyIsBlank(text);

/**
 * A tool turn whose content, the result written as JSON, is written when first read (and only then). Its content is
 * an accessor, not a field of its own: for reading, not for writing the turn out (conversation() without
 * lazyToolContent gives turns for that).
 */
class LazyToolTurn implements ChatMessage {
  readonly role = 'tool';
  readonly #result: unknown;
  #content: string | undefined;

  constructor(
    readonly name: string,
    result: unknown,
  ) {
    this.#result = result;
  }

  get content(): string {
    return (this.#content ??= typeof this.#result === 'string' ? this.#result : pythonJsonDumps(this.#result));
  }

  set content(value: string) {
    this.#content = value;
  }
}

/**
 * The row's conversation. `lazyToolContent`: each tool turn's content is written when read, for readers of roles
 * and the agent's turns (the selectors' checks), which would otherwise write every tool result out for nothing.
 */
export function conversation(row: Obj, lazyToolContent = false): ChatMessage[] {
  // Python's `or` and str() throughout, as the SDK's conversation() reads a row (a missing text is "", a number is its str()).
  const text = (value: unknown): string => (pyTruthy(value) ? pyStr(value) : '');
  const messages: ChatMessage[] = [];
  if (pyTruthy(row.opener)) messages.push({ role: 'assistant', content: text(row.opener) });
  if (pyTruthy(row.prompt)) messages.push({ role: 'user', content: text(row.prompt) });
  const steps = Array.isArray(row.steps) ? row.steps : [];
  for (const step of steps) {
    if (!isObj(step)) continue;
    if (pyTruthy(step.user)) {
      messages.push({ role: 'user', content: text(step.user) });
      continue;
    }
    const spoken = text(step.text);
    if (pyTruthy(step.tool)) {
      messages.push({ role: 'assistant', content: spoken, tool_calls: [{ name: String(step.tool), arguments: pyTruthy(step.arguments) ? step.arguments : {} }] });
      const result = step.result;
      if (lazyToolContent) messages.push(new LazyToolTurn(String(step.tool), result));
      else messages.push({ role: 'tool', name: String(step.tool), content: typeof result === 'string' ? result : pythonJsonDumps(result) });
    } else if (spoken !== '') {
      messages.push({ role: 'assistant', content: spoken });
    }
  }
  const finalText = text(row.final_text);
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
  const text = (value: unknown): string => (pyTruthy(value) ? pyStr(value) : '');
  const roles: number[] = [];
  const contents: string[] = [];
  const push = (role: number, content: string) => {
    roles.push(role);
    contents.push(content);
  };
  if (pyTruthy(row.opener)) push(ASSISTANT, text(row.opener));
  if (pyTruthy(row.prompt)) push(USER, text(row.prompt));
  const steps = Array.isArray(row.steps) ? row.steps : [];
  for (const step of steps) {
    if (!isObj(step)) continue;
    if (pyTruthy(step.user)) push(USER, text(step.user));
    else if (pyTruthy(step.tool)) {
      push(ASSISTANT, text(step.text));
      push(OTHER, ''); // the tool's result
    } else if (text(step.text) !== '') push(ASSISTANT, text(step.text));
  }
  const finalText = text(row.final_text);
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
