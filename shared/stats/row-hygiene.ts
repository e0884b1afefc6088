// Row readers of the SDK's hygiene checks that hack_scan's hand tier reads (docs/hack-scan.md, "The hand tier"):
// the conversation, tool calls, assistant turns and a reply that stops before its end. reply_length is
// shared/schema/conversation.ts's.
import { conversation } from '../schema/conversation';
import { pyLen, pyRstrip, pySplit, pySplitlines, pyStrip, PY_WORD } from '../text/py-text';
import { isObject, pyStr, pyTruthy, type Row } from './keys';

/** TRUNCATION_MIN_CHARS: the shortest final reply read as cut off (shorter ones often end on a number or a name). */
export const TRUNCATION_MIN_CHARS = 200;
/** A last line of at most this many words can be a sign-off; a short capitalised one under `SHORT` follows one. */
const SIGN_OFF_MAX_WORDS = 6;
const SIGN_OFF_SHORT_WORDS = 5;

/** The row's messages: the carried list when it holds any, else the one derived from its steps. */
export function messagesOf(row: Row): Row[] {
  const carried = row.messages;
  if (Array.isArray(carried) && carried.length > 0) return carried.filter(isObject);
  return conversation(row) as unknown as Row[];
}

/** Python's `str(x or "")`. */
export function textOf(value: unknown): string {
  return pyTruthy(value) ? pyStr(value) : '';
}

/** The row's steps as the SDK reads them: `steps`, else a platform pull's `tool_trace`. */
export function stepsOf(row: Row): unknown[] {
  const steps = pyTruthy(row.steps) ? row.steps : row.tool_trace;
  return Array.isArray(steps) ? steps : [];
}

/** Tool calls: steps that name a tool. */
export function toolCalls(row: Row): number {
  let count = 0;
  for (const step of stepsOf(row)) if (isObject(step) && pyTruthy(step.tool)) count++;
  return count;
}

export function assistantTurns(row: Row): number {
  let count = 0;
  for (const message of messagesOf(row)) if (message.role === 'assistant') count++;
  return count;
}

const TERMINAL = /[.!?:)"'\]}]$/;
const ANSWER_LINE = /^(?:#{2,4}[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\x1c-\x1f]*)?[-+]?\$?\p{Nd}[\p{Nd},]*(?:\.\p{Nd}+)?%?$/u;
// Python's \b after a word ends where no word character follows; after a dash, only where one does.
const SIGN_OFF = new RegExp(
  `^(?:(?:--+|\u2014)(?=[${PY_WORD}])|(?:best|all the best|(?:kind|best|warm) regards|regards|thanks|thank you|` +
    `many thanks|cheers|sincerely|warmly|yours(?: truly| sincerely)?|take care|talk soon)(?![${PY_WORD}]))`,
  'iu',
);
const UPPER_START = /^\p{Uppercase}/u;

/** Whether a reply reached its own end: closing punctuation, a closed code fence, a bare answer line or a sign-off. */
export function looksFinished(final: string): boolean {
  const text = pyRstrip(final);
  if (text === '') return false;
  if (TERMINAL.test(text)) return true;
  if (text.endsWith('```')) return (text.split('```').length - 1) % 2 === 0;
  const lines = pySplitlines(text).map(pyStrip).filter((line) => line !== '');
  const last = lines[lines.length - 1];
  if (ANSWER_LINE.test(last)) return true;
  if (pySplit(last).length <= SIGN_OFF_MAX_WORDS && SIGN_OFF.test(last)) return true;
  if (lines.length >= 2 && pySplit(last).length <= SIGN_OFF_SHORT_WORDS && (UPPER_START.test(last) || last.startsWith('-') || last.startsWith('\u2014'))) {
    const prev = lines[lines.length - 2];
    return prev.endsWith(',') || SIGN_OFF.test(prev);
  }
  return false;
}

/** A reply the grader called truncated, or a long final reply that stops without reaching its end. */
export function isTruncated(row: Row): boolean {
  const reason = pySplit(textOf(pyTruthy(row.reason) ? row.reason : row.grader_reason).toLowerCase()).join(' ');
  if (reason.includes('truncat') || reason.includes('cut off')) return true;
  const final = pyRstrip(textOf(row.final_text));
  return pyLen(final) >= TRUNCATION_MIN_CHARS && !looksFinished(final);
}
