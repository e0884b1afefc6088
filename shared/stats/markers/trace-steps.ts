// The tool calls a rollout made, as the trace families read them (sdk-semantics.md §7.2): from steps (or a
// platform tool_trace), else from assistant tool_calls in messages (results bound by tool_call_id), else from
// <tool_call> blocks in the final reply (results unknown); and what each call was and whether it failed.
import { isObject, pyStr, pyTruthy, type Row } from '../keys';
import { pyIsBlank } from '../../text/py-text';
import { COMMAND_KEYS, CONTENT_KEYS, FAIL_STATUSES, FAIL_TEXT, KIND_BY_NAME, KINDS, PATH_KEYS, TOOL_CALL_BLOCK, type StepKind } from './trace-patterns';

export interface TraceStep {
  tool: string;
  arguments: Row;
  result: unknown;
  failed: boolean;
}

/** json.loads of text, or undefined where Python would raise. */
export function loadsJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const present = (value: unknown) => value !== null && value !== undefined;

/** `row.get("steps") or row.get("tool_trace") or []`, as a list (anything else holds no step). */
export function stepList(row: Row): unknown[] {
  const chosen = pyTruthy(row.steps) ? row.steps : pyTruthy(row.tool_trace) ? row.tool_trace : [];
  return Array.isArray(chosen) ? chosen : [];
}

/** The first of `keys` whose value is text that is not blank. */
export function textArg(args: Row, keys: readonly string[]): string | null {
  for (const key of keys) {
    const value = args[key];
    if (typeof value === 'string' && !pyIsBlank(value)) return value;
  }
  return null;
}

/**
 * What a call did: a `kinds` override by tool name wins (a kind not in KINDS reads as none); otherwise a command
 * argument makes a command (unless the name says another kind), a delete-like name with a path a delete, a path
 * with content a write, then the name's own kind, then a path alone a read.
 */
export function stepKind(tool: string, args: Row, kinds?: Readonly<Record<string, unknown>> | null): StepKind | null {
  if (kinds && pyTruthy(kinds) && Object.hasOwn(kinds, tool)) {
    const kind = pyStr(kinds[tool]);
    return (KINDS as readonly string[]).includes(kind) ? (kind as StepKind) : null;
  }
  let byName: StepKind | null = null;
  for (const [kind, pattern] of KIND_BY_NAME) {
    if (pattern.search(tool)) {
      byName = kind;
      break;
    }
  }
  const hasCommand = textArg(args, COMMAND_KEYS) !== null;
  const hasPath = textArg(args, PATH_KEYS) !== null;
  const hasContent = textArg(args, CONTENT_KEYS) !== null;
  if (hasCommand && (byName === null || byName === 'command')) return 'command';
  if (byName === 'delete' && hasPath) return 'delete';
  if (hasPath && hasContent) return 'write';
  if (byName === 'write' || byName === 'delete' || byName === 'command') return byName;
  if (hasPath) return 'read';
  return byName;
}

/** A Python int (not a bool) other than 0. JSON cannot tell 1 from 1.0, so a whole number counts as an int. */
const nonZeroInt = (value: unknown) => typeof value === 'number' && Number.isInteger(value) && value !== 0;

/** Did the world say no: failed true, an error, a failing status, a non-zero exit code, or a text that opens with an error word. */
export function stepFailed(step: Row): boolean {
  if (step.failed === true || pyTruthy(step.error)) return true;
  const result = present(step.result) ? step.result : step.output;
  if (isObject(result)) {
    const status = (pyTruthy(result.status) ? pyStr(result.status) : '').toLowerCase();
    if (FAIL_STATUSES.has(status) || pyTruthy(result.error)) return true;
    const code = Object.hasOwn(result, 'exit_code') ? result.exit_code : Object.hasOwn(result, 'returncode') ? result.returncode : result.code;
    return nonZeroInt(code);
  }
  if (typeof result === 'string') return FAIL_TEXT.search(result) !== null;
  return false;
}

/** Arguments as a dict: a JSON text is decoded; anything that is not an object reads as none. */
function argsOf(raw: unknown): Row {
  const decoded = typeof raw === 'string' ? loadsJson(raw) ?? {} : raw;
  return isObject(decoded) ? decoded : {};
}

function fromSteps(row: Row): TraceStep[] {
  const out: TraceStep[] = [];
  for (const step of stepList(row)) {
    if (!isObject(step) || !pyTruthy(step.tool)) continue;
    out.push({
      tool: pyStr(step.tool),
      arguments: argsOf(present(step.arguments) ? step.arguments : step.input),
      result: present(step.result) ? step.result : step.output,
      failed: stepFailed(step),
    });
  }
  return out;
}

function fromMessages(row: Row): TraceStep[] {
  const messages = pyTruthy(row.messages) && Array.isArray(row.messages) ? row.messages : [];
  const results = new Map<string, unknown>();
  for (const m of messages) {
    if (isObject(m) && m.role === 'tool' && pyTruthy(m.tool_call_id)) results.set(pyStr(m.tool_call_id), m.content);
  }
  const out: TraceStep[] = [];
  for (const m of messages) {
    if (!isObject(m) || m.role !== 'assistant') continue;
    const calls = pyTruthy(m.tool_calls) && Array.isArray(m.tool_calls) ? m.tool_calls : [];
    for (const call of calls) {
      if (!isObject(call)) continue;
      const fn = isObject(call.function) ? call.function : call;
      if (!pyTruthy(fn.name)) continue;
      const result = results.get(pyTruthy(call.id) ? pyStr(call.id) : '');
      out.push({
        tool: pyStr(fn.name),
        arguments: argsOf(fn.arguments),
        result,
        failed: present(result) ? stepFailed({ result }) : false,
      });
    }
  }
  return out;
}

function fromReply(row: Row): TraceStep[] {
  const out: TraceStep[] = [];
  const text = pyTruthy(row.final_text) ? pyStr(row.final_text) : '';
  if (!text.includes('<tool_call>')) return out;
  for (const m of TOOL_CALL_BLOCK.finditer(text)) {
    const obj = loadsJson(m[1]);
    if (!isObject(obj) || !pyTruthy(obj.name)) continue;
    out.push({ tool: pyStr(obj.name), arguments: isObject(obj.arguments) ? obj.arguments : {}, result: null, failed: false });
  }
  return out;
}

/** The rollout's tool calls in order, from the first of the three places that holds any. */
export function traceSteps(row: Row): TraceStep[] {
  const steps = fromSteps(row);
  if (steps.length > 0) return steps;
  const calls = fromMessages(row);
  return calls.length > 0 ? calls : fromReply(row);
}
