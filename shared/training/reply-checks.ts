// The SDK's reading of a reply and its tool results (score/grading.py), as the selectors use it: whether a reply
// reached its end, the junk patterns, whether a tool result is a fault, and the trace's primary fault kind.
import { parsePyJson, pyDumps } from '../schema/py-json';
import { pyStr, pyTruthy } from '../stats/keys';
import { pyRstrip, pySplit, pyStrip } from '../text/py-text';

type Obj = Record<string, unknown>;

export const TRUNCATED_REPLY_CHARS = 600;
const SIGN_OFF_MAX_WORDS = 6;
const SIGN_OFF_SHORT_WORDS = 5;

export const INFRA_STUB = /^<agent error:|returned\s+[45]\d\d\b|^(https?:\/\/\S+\s+)?[45]\d\d(\s|$)/i;
export const HARNESS_LEAK = /<USER_TURN>|\b(scene brief|scenario_dimensions|world_state|situation card|region_id)\b/i;
export const DEGENERATE = /(.)\1{29,}/;
const UNFINISHED_TAIL = /[.!?:)"'\]}]\s*$/;
const ANSWER_LINE = /^(?:#{2,4}\s*)?[-+]?\$?\d[\d,]*(?:\.\d+)?%?$/;
const SIGN_OFF = /^(?:--+|—|best|all the best|(?:kind|best|warm) regards|regards|thanks|thank you|many thanks|cheers|sincerely|warmly|yours(?: truly| sincerely)?|take care|talk soon)\b/i;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Number);

/** str.splitlines(). */
export function pySplitLines(text: string): string[] {
  const lines = text.split(/\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/);
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

const isUpper = (ch: string): boolean => ch !== ch.toLowerCase() && ch === ch.toUpperCase();

/** Whether a reply reached its own end: terminal punctuation, a closed code fence, an answer line, or a sign-off. */
export function looksFinished(final: string): boolean {
  const text = pyRstrip(final);
  if (!text) return false;
  if (UNFINISHED_TAIL.test(text)) return true;
  if (text.endsWith('```')) return text.split('```').length % 2 === 1; // an even count of fences: every one closed
  const lines = pySplitLines(text).map(pyStrip).filter((l) => l);
  const last = lines[lines.length - 1];
  if (ANSWER_LINE.test(last)) return true;
  const words = pySplit(last).length;
  if (words <= SIGN_OFF_MAX_WORDS && SIGN_OFF.test(last)) return true;
  if (lines.length >= 2 && words <= SIGN_OFF_SHORT_WORDS && (isUpper(last[0]) || '-—'.includes(last[0]))) {
    const prev = lines[lines.length - 2];
    return prev.endsWith(',') || SIGN_OFF.test(prev);
  }
  return false;
}

/** as_dict: a dict as it is, a JSON string holding one parsed, anything else {}. */
export function asDict(value: unknown): Obj {
  if (isObj(value)) return value;
  if (typeof value === 'string') {
    try {
      const parsed = parsePyJson(value);
      return isObj(parsed) ? parsed : {};
    } catch {
      return {};
    }
  }
  return {};
}

const BAD_STATUS = new Set(['rejected', 'not_found', 'error', 'blocked', 'denied', 'failed', 'unauthorized', 'invalid', 'timeout', 'permission_denied']);
const FAULT_ALIASES: Record<string, string> = {
  already_acted_on: 'already_done', permission_denied: 'deny', denied: 'deny', unauthorized: 'deny', blocked: 'deny', malformed_result: 'malformed',
  stale_result: 'stale', 'entity missing': 'not_found', missing: 'not_found', 'entity already acted on': 'already_done',
};
const CLEAN_FAULT = new Set(['', 'ok', 'created', 'deleted', 'success', 'exit_0', 'no fault', 'clean']);
const KNOWN_FAULTS = new Set([...BAD_STATUS, ...Object.keys(FAULT_ALIASES), ...Object.values(FAULT_ALIASES), 'stale', 'malformed', 'already_done', 'not_found', 'deny', 'garbled']);
const HTTP_FAIL = /^[45]\d\d$/;
export const NO_FAULT = 'no fault';

/** str(data.get(key, "")) */
const field = (data: Obj, key: string): string => (key in data ? pyStr(data[key]) : '');

const GARBLED = /garbled/i;
// Most keys and values are shorter than the word (ids, statuses, "sku"): those are not searched.
const mentionsGarbled = (text: string): boolean => text.length >= 7 && GARBLED.test(text);

/** Whether any key or string anywhere in `value` holds "garbled", in any case. */
function holdsGarbled(value: unknown): boolean {
  if (typeof value === 'string') return mentionsGarbled(value);
  if (typeof value !== 'object' || value === null || value instanceof Number) return false;
  if (Array.isArray(value)) return value.some(holdsGarbled);
  for (const key in value) if (mentionsGarbled(key) || holdsGarbled((value as Obj)[key])) return true;
  return false;
}

/**
 * The SDK's `"<<garbled" in blob or "garbled resp" in blob`, blob the result's JSON text lowered. Both words run
 * inside one key or string of that text (an escape, a quote or a separator would break them; json.dumps escapes
 * nothing of them), so a result none of whose strings holds "garbled" is not written out to know.
 */
export function garbledBlob(data: Obj): boolean {
  if (!holdsGarbled(data)) return false;
  const blob = pyDumps(data).toLowerCase();
  return blob.includes('<<garbled') || blob.includes('garbled resp');
}

/** _step_faulted: a tool result that is a sandbox or tool fault. */
export function stepFaulted(result: unknown): boolean {
  const data = asDict(result);
  const status = pyStrip(field(data, 'status').toLowerCase());
  if (BAD_STATUS.has(status) || HTTP_FAIL.test(status)) return true;
  if (status.startsWith('exit_') && status !== 'exit_0' && status !== 'exit_') return true;
  if (pyTruthy(data.stale) || status.includes('permission')) return true;
  if (garbledBlob(data)) return true;
  if ('error' in data) {
    const err = pyStrip(pyTruthy(data.error) ? pyStr(data.error) : '');
    if (!err && !['ok', 'created', 'deleted'].includes(status)) return true;
    if (err && (status === '' || status === 'error')) return true;
  }
  return false;
}

export function normalizeFaultName(raw: string): string {
  const text = pyStrip(raw).toLowerCase();
  if (!text) return '';
  const mapped = FAULT_ALIASES[text] ?? text;
  return CLEAN_FAULT.has(mapped) ? '' : mapped;
}

function faultFromResult(result: unknown): string {
  const data = asDict(result);
  const status = pyStrip(field(data, 'status').toLowerCase());
  const reason = pyStrip(field(data, 'reason').toLowerCase());
  if (garbledBlob(data)) return 'malformed';
  if (pyTruthy(data.stale)) return 'stale';
  if (status === 'already_done' || status === 'already_acted_on' || reason === 'already_acted_on') return 'already_done';
  const name = normalizeFaultName(status);
  if (name && (KNOWN_FAULTS.has(name) || KNOWN_FAULTS.has(status))) return name;
  if (stepFaulted(result)) return name || 'error';
  return '';
}

function faultFromPlan(plan: unknown): string {
  if (!isObj(plan)) return '';
  for (const spec of Object.values(plan)) {
    if (!isObj(spec)) continue;
    const name = normalizeFaultName(pyTruthy(spec.mode) ? pyStr(spec.mode) : '');
    if (name) return name;
  }
  return '';
}

/** trace_fault: the first faulted tool result's kind; the injected plan only when no tool result is on the trace. */
export function traceFault(row: Obj): string {
  let sawResult = false;
  for (const step of Array.isArray(row.steps) ? row.steps : []) {
    if (!isObj(step) || !pyTruthy(step.tool)) continue;
    if (step.result === null || step.result === undefined) continue;
    sawResult = true;
    const name = faultFromResult(step.result);
    if (name) return name;
  }
  if (!sawResult) {
    const planned = faultFromPlan(row.faults);
    if (planned) return planned;
  }
  return NO_FAULT;
}
