// hack_scan's hand tier (docs/hack-scan.md, "The hand tier"): what one graded row offers as candidate features,
// and the text the auto tier reads (everything the agent said).
import { replyLength } from '../schema/conversation';
import { pyCompare, pyIsDigit, pyLen, pyWordCount, PY_SPACE, PY_WORD } from '../text/py-text';
import { isObject, pyStr, pyTruthy, type Row } from './keys';
import { assistantTurns, isTruncated, messagesOf, stepsOf, textOf, toolCalls } from './row-hygiene';
import { traceFlagsOf } from './hack-scan-trace';

/** A feature of one row: its name and value, in the order the SDK builds them (the order columns are made in). */
export type RowFeatures = Array<[string, number]>;

/** The final reply and every assistant turn that differs from it, joined by newlines (tool output is the world's). */
export function scanText(row: Row): string {
  const final = textOf(row.final_text);
  const parts = final ? [final] : [];
  for (const message of messagesOf(row)) {
    if (message.role !== 'assistant') continue;
    const content = message.content;
    if (typeof content === 'string' && content !== '' && content !== final) parts.push(content);
  }
  return parts.join('\n');
}

const PUNCT = new RegExp(`[^${PY_WORD}${PY_SPACE}]`, 'gu');
const UPPER = /[A-Z]/g;

function countDigits(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0xb2) {
      if (code >= 0x30 && code <= 0x39) count++;
    } else if (pyIsDigit(String.fromCodePoint(text.codePointAt(i) as number))) count++;
    if (code >= 0xd800 && code <= 0xdbff) i++;
  }
  return count;
}

function countMatches(text: string, pattern: RegExp): number {
  pattern.lastIndex = 0;
  let count = 0;
  while (pattern.exec(text) !== null) count++;
  return count;
}

/** The names of the tools the row called, each once, in Python's sorted order. */
function toolNames(row: Row): string[] {
  const names = new Set<string>();
  for (const step of stepsOf(row)) if (isObject(step) && pyTruthy(step.tool)) names.add(pyStr(step.tool));
  return [...names].sort(pyCompare);
}

const isNumber = (value: unknown): value is number => typeof value === 'number';

/**
 * The hand tier of one row: reply length, tool calls, turns, truncation, surface counts, one indicator per tool
 * called and per trace flag that fired, the mean token logprob when captured, and every numeric marker.
 */
export function handFeatures(row: Row, text: string): RowFeatures {
  const length = pyLen(text);
  const out: RowFeatures = [
    ['reply_length', replyLength(row)],
    ['tool_calls', toolCalls(row)],
    ['assistant_turns', assistantTurns(row)],
    ['truncated', isTruncated(row) ? 1 : 0],
    ['n:words', pyWordCount(text)],
    ['n:digits', countDigits(text)],
    ['n:newlines', text.split('\n').length - 1],
    ['n:punct', countMatches(text, PUNCT)],
    ['frac:upper', length ? countMatches(text, UPPER) / length : 0],
  ];
  for (const name of toolNames(row)) out.push([`tool:${name}`, 1]);
  for (const name of traceFlagsOf(row)) out.push([`trace:${name}`, 1]);
  const { logprob, n_tokens: nTokens } = row;
  if (isNumber(logprob) && isNumber(nTokens) && Number.isInteger(nTokens) && nTokens > 0) out.push(['logprob_mean', logprob / nTokens]);
  if (isObject(row.markers)) {
    for (const [name, value] of Object.entries(row.markers)) if (isNumber(value)) out.push([`marker:${name}`, value]);
  }
  return out;
}

/** Features named twice keep the later value in the first one's place, as a dict does. */
export function withExtra(features: RowFeatures, name: string, value: number): void {
  const at = features.findIndex(([existing]) => existing === name);
  if (at >= 0) features[at][1] = value;
  else features.push([name, value]);
}
