// The chat-completions wire form of a conversation (sdk-semantics §8.3): system message first, <think> blocks
// stripped, tool calls as {id, type, function: {name, arguments}}, tool results linked by tool_call_id, long tool
// output cut with a marker, and the loss mask, one 0/1 per message.
import { pyStr, pyTruthy } from '../stats/keys';
import { parsePyJson, pyDumps } from '../schema/py-json';
import { pyHead, pyLen, pyStrip } from '../text/py-text';

type Obj = Record<string, unknown>;

export interface WireCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: unknown };
}

/** A message as the exporters write it; key order is the SDK's. */
export interface WireMessage {
  role: string;
  content: string;
  tool_calls?: WireCall[];
  name?: string;
  tool_call_id?: string;
}

export const MASK_MODES = ['assistant', 'final'] as const;
export type MaskMode = (typeof MASK_MODES)[number];

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Number);

// Python's re with re.S | re.I: `.` crosses lines, and `\s*` eats the whitespace after a closed block.
const THINK_BLOCK = /<think>[\s\S]*?<\/think>[\t-\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*/gi;

export function stripThink(text: string): string {
  return pyStrip(text.replace(THINK_BLOCK, ''));
}

/** json.loads: a JSON value, or undefined when the text is not JSON. */
function jsonLoads(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: parsePyJson(text) };
  } catch {
    return { ok: false };
  }
}

/** Repeated JSON string encoding unwrapped (at most three times) down to the structured value. */
export function decodedArguments(args: unknown): unknown {
  let value = args;
  for (let i = 0; i < 3; i++) {
    if (typeof value !== 'string') break;
    const parsed = jsonLoads(value);
    if (!parsed.ok) break;
    value = parsed.value;
  }
  return value;
}

/** The OpenAI wire's JSON string of decoded arguments: separators "," and ": "; a value still a string as it is. */
function wireOf(value: unknown): string {
  if (typeof value === 'string') return value;
  return pyDumps(pyTruthy(value) ? value : {}, ',', ': ');
}

/**
 * On a wire call made here: whether its arguments string parses back to a dict, known from the value it was written
 * from (a dict, or an empty value written as {}), so the round-trip gate need not parse it again. Not serialized.
 */
export const ARGUMENTS_ARE_DICT = Symbol('arguments parse back to a dict');

/**
 * On a wire call made here: its arguments string and the value that string parses back to (what decodedArguments
 * would give), so the TRL shape, which wants the value, need not parse the text it was just written from (a third
 * of a TRL export's conversion). Set only where the two are known to agree; not serialized.
 */
export const DECODED_ARGUMENTS = Symbol('the value the arguments string parses back to');

export interface DecodedArguments {
  text: string;
  value: unknown;
}

/**
 * Whether parsePyJson(pyDumps(value)) gives `value` back, as JSON: plain objects and arrays of strings, booleans, null
 * and finite numbers (a PyFloat stays one: `1.0` is read back boxed). Not NaN or the infinities (written as Python
 * writes them, which JSON.parse refuses), undefined, or anything that is not JSON data.
 */
function readsBack(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object':
      break;
    default:
      return false;
  }
  if (value === null) return true;
  if (value instanceof Number) return Number.isFinite(value.valueOf());
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!readsBack(value[i])) return false;
    return true;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  const obj = value as Obj;
  for (const key in obj) if (obj[key] === undefined || !readsBack(obj[key])) return false;
  return true;
}

/** What a cut costs, summed over a row: messages cut and characters removed. */
export interface CutStats {
  truncated: number;
  charsCut: number;
}

export interface ConvertOptions {
  system: string;
  stripThink: boolean;
  maxToolOutputChars: number | null;
  stats?: CutStats;
}

const text = (value: unknown): string => (pyTruthy(value) ? pyStr(value) : '');

/** _convert_messages: the row's messages in wire form (a message that is not an object is left out). */
export function convertMessages(messages: unknown, options: ConvertOptions): WireMessage[] {
  const out: WireMessage[] = [];
  if (options.system) out.push({ role: 'system', content: options.system });
  if (!Array.isArray(messages)) return out; // a string or object iterates to no messages in the SDK
  const pending: string[] = [];
  let callIndex = 0;
  for (const message of messages) {
    if (!isObj(message)) continue;
    const role = text(message.role);
    let content = text(message.content);
    if (role === 'assistant') {
      if (options.stripThink) content = stripThink(content);
      const entry: WireMessage = { role: 'assistant', content };
      const calls = message.tool_calls;
      if (pyTruthy(calls) && Array.isArray(calls)) {
        entry.tool_calls = calls.map((raw) => {
          const call = isObj(raw) ? raw : {};
          const fn = isObj(call.function) ? call.function : call;
          const id = pyTruthy(call.id) ? pyStr(call.id) : `call_${String(callIndex).padStart(4, '0')}`;
          callIndex++;
          pending.push(id);
          const value = decodedArguments(fn.arguments);
          const argumentsText = wireOf(value);
          const wire: WireCall = { id, type: 'function' as const, function: { name: text(fn.name), arguments: argumentsText } };
          // A string is a dict only if it still parses as one; anything else written here is {} or its own JSON.
          if (typeof value !== 'string') {
            const tagged = wire as WireCall & { [ARGUMENTS_ARE_DICT]?: boolean; [DECODED_ARGUMENTS]?: DecodedArguments };
            tagged[ARGUMENTS_ARE_DICT] = isObj(value) || !pyTruthy(value);
            const written = pyTruthy(value) ? value : {};
            if (readsBack(written)) tagged[DECODED_ARGUMENTS] = { text: argumentsText, value: written };
          }
          return wire;
        });
      }
      out.push(entry);
    } else if (role === 'tool') {
      const cap = options.maxToolOutputChars;
      if (cap !== null) {
        const length = pyLen(content);
        if (length > cap) {
          const keep = Math.max(0, cap);
          const cut = length - keep;
          content = `${pyHead(content, keep)}\n[... ${cut} chars of tool output truncated]`;
          if (options.stats) {
            options.stats.truncated++;
            options.stats.charsCut += cut;
          }
        }
      }
      const entry: WireMessage = { role: 'tool', content };
      if (pyTruthy(message.name)) entry.name = pyStr(message.name);
      const id = pyTruthy(message.tool_call_id) ? pyStr(message.tool_call_id) : (pending.shift() ?? '');
      if (id) entry.tool_call_id = id;
      out.push(entry);
    } else if (role === 'user' || role === 'system') {
      out.push({ role, content });
    }
  }
  return out;
}

/** One 0/1 per message: 1 on assistant turns ("final": the last one only), 0 on system, user and tool. */
export function lossMask(messages: readonly { role?: unknown }[], mode: MaskMode): number[] {
  const mask = messages.map((m) => (m.role === 'assistant' ? 1 : 0));
  if (mode === 'final') {
    const last = mask.lastIndexOf(1);
    if (last >= 0) return mask.map((_, i) => (i === last ? 1 : 0));
  }
  return mask;
}
