// mark_grounding and ungrounded_arguments (sdk-semantics.md §7.3; docs/markers.md "Argument grounding"): every text
// argument of every tool call must appear in what the call could have drawn on, or it was made up.
import { isObject, pyStr, pyTruthy, type Row } from '../keys';
import { isPySpace, PY_SPACE, pyLen } from '../../text/py-text';
import { loadsJson, stepList } from './trace-steps';
import { TOOL_CALL_BLOCK } from './trace-patterns';

export const GROUNDING_MARKER = 'argument_grounding';

export interface GroundingOptions {
  ignore_keys?: readonly string[];
  allow?: readonly unknown[];
  min_len?: number;
}

export interface ToolCall {
  tool: string;
  arguments: Row;
  /** What the call could draw on, normalised: the prompt, the system prompt, and what came before it. */
  context: string;
}

const SPACE_RUN = new RegExp(`[${PY_SPACE}]+`, 'gu');
const LOOSE_RUN = new RegExp(`[${PY_SPACE}_\\-]+`, 'gu');

/** Whether a text is already spaced as normText leaves it: no space but " ", no two in a row, none at either end. */
function spacedPlainly(text: string): boolean {
  let previousSpace = true; // a space at the start is not plain
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const space = code === 32;
    if ((space && previousSpace) || (!space && isPySpace(code))) return false;
    previousSpace = space;
  }
  return !previousSpace || text.length === 0;
}

/** Whitespace runs as one space, trimmed, lower-cased; a falsy value is "" and anything else its Python str(). */
export function normText(value: unknown): string {
  if (!pyTruthy(value)) return '';
  const text = pyStr(value);
  // Most prompts, results and arguments are spaced plainly already: one scan instead of two regex replaces, which
  // were a tenth of the stamp's time on 100k rows.
  if (spacedPlainly(text)) return text.toLowerCase();
  return text.replace(SPACE_RUN, ' ').replace(/^ | $/g, '').toLowerCase();
}

/** The text with whitespace, `_` and `-` removed (ORD 4017 and ORD-4017 read alike). */
const loose = (text: string) => text.replace(LOOSE_RUN, '');

/** A dict as is, JSON text that decodes to one, else null. */
function jsonObject(raw: unknown): Row | null {
  if (isObject(raw)) return raw;
  if (typeof raw !== 'string') return null;
  const obj = loadsJson(raw);
  return isObject(obj) ? obj : null;
}

/** `<tool_call>` blocks in a text, as (tool, arguments). */
function blockCalls(text: string): Array<[string, Row]> {
  const out: Array<[string, Row]> = [];
  if (!text.includes('<tool_call>')) return out;
  for (const m of TOOL_CALL_BLOCK.finditer(text)) {
    const obj = jsonObject(m[1]);
    if (obj && pyTruthy(obj.name)) out.push([pyStr(obj.name), jsonObject(obj.arguments) ?? {}]);
  }
  return out;
}

function fromSteps(row: Row, prompt: string, system: string): ToolCall[] | null {
  const steps = stepList(row);
  const calls: ToolCall[] = [];
  // The context grows by each earlier step's result (non-object entries add nothing, not even a space).
  let context = `${prompt} ${system}`;
  for (const step of steps) {
    if (isObject(step) && pyTruthy(step.tool)) {
      const raw = step.arguments === null || step.arguments === undefined ? step.input : step.arguments;
      calls.push({ tool: pyStr(step.tool), arguments: jsonObject(raw) ?? {}, context });
    }
    if (isObject(step)) context += ` ${normText(step.result !== null && step.result !== undefined ? step.result : step.output)}`;
  }
  return calls.length > 0 ? calls : null;
}

function messageList(row: Row): unknown[] {
  return pyTruthy(row.messages) && Array.isArray(row.messages) ? row.messages : [];
}

function fromMessages(row: Row, prompt: string, system: string): ToolCall[] | null {
  const messages = messageList(row);
  const calls: ToolCall[] = [];
  let context = `${prompt} ${system}`;
  for (const message of messages) {
    if (isObject(message) && message.role === 'assistant') {
      const found: Array<[string, Row]> = [];
      const listed = pyTruthy(message.tool_calls) && Array.isArray(message.tool_calls) ? message.tool_calls : [];
      for (const entry of listed) {
        const call = isObject(entry) ? entry : {};
        const fn = isObject(call.function) ? call.function : call;
        found.push([pyTruthy(fn.name) ? pyStr(fn.name) : '', jsonObject(fn.arguments) ?? {}]);
      }
      found.push(...blockCalls(pyTruthy(message.content) ? pyStr(message.content) : ''));
      for (const [tool, args] of found) calls.push({ tool, arguments: args, context });
    }
    if (isObject(message) && (message.role === 'user' || message.role === 'system' || message.role === 'tool')) context += ` ${normText(message.content)}`;
  }
  return calls.length > 0 ? calls : null;
}

/** Every tool call the rollout made, with its context: from steps, else messages, else blocks in the final reply. */
export function toolCallsOf(row: Row): ToolCall[] {
  const prompt = normText(row.prompt);
  const system = normText(row.system_prompt);
  const steps = fromSteps(row, prompt, system);
  if (steps) return steps;
  const messages = fromMessages(row, prompt, system);
  if (messages) return messages;
  const blocks = blockCalls(pyTruthy(row.final_text) ? pyStr(row.final_text) : '');
  if (blocks.length === 0) return [];
  const turns = messageList(row).filter((m): m is Row => isObject(m) && (m.role === 'user' || m.role === 'system'));
  const context = [prompt, system, ...turns.map((m) => normText(m.content))].join(' ');
  return blocks.map(([tool, args]) => ({ tool, arguments: args, context }));
}

/** (key path, value) of every text leaf, at any depth: `a.b.0`. */
function textLeaves(value: unknown, prefix: string, out: Array<[string, string]>): void {
  if (isObject(value)) for (const [key, inner] of Object.entries(value)) textLeaves(inner, `${prefix}${key}.`, out);
  else if (Array.isArray(value)) value.forEach((inner, i) => textLeaves(inner, `${prefix}${i}.`, out));
  else if (typeof value === 'string') out.push([prefix.replace(/\.+$/, ''), value]);
}

const NONE: ReadonlySet<string> = new Set();

export interface Ungrounded {
  tool: string;
  key: string;
  value: string;
}

/** ungrounded_arguments(row, ignore_keys=, allow=, min_len=3): the text arguments that appear nowhere in their call's context. */
export function ungroundedArguments(row: Row, options: GroundingOptions = {}): Ungrounded[] {
  // The stamp calls this with no options for every row: no sets to build then.
  const skip = options.ignore_keys?.length ? new Set(options.ignore_keys.map((key) => pyStr(key).toLowerCase())) : NONE;
  const allowed = options.allow?.length ? new Set(options.allow.map(normText)) : NONE;
  const minLen = options.min_len ?? 3;
  const out: Ungrounded[] = [];
  for (const call of toolCallsOf(row)) {
    const leaves: Array<[string, string]> = [];
    textLeaves(call.arguments, '', leaves);
    let looseContext: string | null = null;
    for (const [key, value] of leaves) {
      const v = normText(value);
      if (pyLen(v) < minLen || allowed.has(v)) continue;
      if (skip.size > 0 && skip.has(key.split('.').pop()!.toLowerCase())) continue;
      if (call.context.includes(v)) continue;
      const lv = loose(v);
      looseContext ??= loose(call.context);
      if (lv !== '' && looseContext.includes(lv)) continue;
      out.push({ tool: call.tool, key, value });
    }
  }
  return out;
}

/** argument_grounding(row): 1.0 when every text argument is grounded (a rollout with no call is), else 0.0. */
export function argumentGrounding(row: Row, options: GroundingOptions = {}): number {
  return ungroundedArguments(row, options).length > 0 ? 0 : 1;
}

/** mark_grounding(rows, ...): copies of the rows with markers.argument_grounding stamped (other rows as they are). */
export function markGrounding(rows: readonly unknown[], options: GroundingOptions = {}): unknown[] {
  return rows.map((row) => {
    if (!isObject(row)) return row;
    const markers = isObject(row.markers) ? { ...row.markers } : {};
    markers[GROUNDING_MARKER] = argumentGrounding(row, options);
    return { ...row, markers };
  });
}
