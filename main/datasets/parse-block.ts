// Parses a block of complete JSONL lines into rows' columns and per-line errors (runs in an import worker).
// The result is columnar and holds no copy of a row that is stored as it came: only where its line lies in
// the block, so handing a block back to the engine thread costs a few typed arrays, not the text again.
import type { ImportLineError } from '../../shared/api/datasets';
import type { StoredRow } from '../db/repos/rows';
import { parseRowLine } from './parse-row-line';
import { toStoredRow } from './row-columns';

const GOLD_STATES = ['none', 'pass', 'fail'];

export interface ParsedBlock {
  count: number;
  /** Where each row's line lies in the block text (trimmed). */
  starts: Int32Array;
  ends: Int32Array;
  /** The JSON to store for a row that was rewritten (a load_traces spelling); null: store its line as it is. */
  rewritten: Array<string | null>;
  scenarioIds: Array<string | null>;
  /** NaN stands for null. */
  rolloutIndex: Float64Array;
  evalRun: Float64Array;
  reward: Float64Array;
  replyLength: Int32Array;
  goldState: Uint8Array;
  errors: ImportLineError[];
  /** Lines the block held, blank ones included. */
  lineCount: number;
}

/** Line numbers in errors count from 1 within the block. Blank lines are skipped silently. */
export function parseBlock(block: string): ParsedBlock {
  const capacity = countNewlines(block) + 1;
  const parsed: ParsedBlock = {
    count: 0,
    starts: new Int32Array(capacity),
    ends: new Int32Array(capacity),
    rewritten: [],
    scenarioIds: [],
    rolloutIndex: new Float64Array(capacity),
    evalRun: new Float64Array(capacity),
    reward: new Float64Array(capacity),
    replyLength: new Int32Array(capacity),
    goldState: new Uint8Array(capacity),
    errors: [],
    lineCount: 0,
  };
  let start = 0;
  while (start < block.length) {
    let end = block.indexOf('\n', start);
    if (end === -1) end = block.length;
    parsed.lineCount++;
    let from = start;
    let to = end;
    while (from < to && block.charCodeAt(from) <= 32) from++;
    while (to > from && block.charCodeAt(to - 1) <= 32) to--;
    if (to > from) {
      const line = block.slice(from, to);
      const result = parseRowLine(line);
      if (result.ok) addRow(parsed, toStoredRow(result.row, 0, result.unchanged ? '' : JSON.stringify(result.row)), from, to, !result.unchanged);
      else parsed.errors.push({ line: parsed.lineCount, message: result.message });
    }
    start = end + 1;
  }
  return parsed;
}

function addRow(parsed: ParsedBlock, row: StoredRow, from: number, to: number, rewritten: boolean): void {
  const i = parsed.count++;
  parsed.starts[i] = from;
  parsed.ends[i] = to;
  parsed.rewritten.push(rewritten ? row.json : null);
  parsed.scenarioIds.push(row.scenarioId);
  parsed.rolloutIndex[i] = row.rolloutIndex ?? Number.NaN;
  parsed.evalRun[i] = row.evalRun ?? Number.NaN;
  parsed.reward[i] = row.reward ?? Number.NaN;
  parsed.replyLength[i] = row.replyLength;
  parsed.goldState[i] = Math.max(0, GOLD_STATES.indexOf(row.goldState));
}

function countNewlines(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

const nullable = (value: number): number | null => (Number.isNaN(value) ? null : value);

/** The block's rows, numbered from firstOrdinal, their JSON taken from the block text where unchanged. */
export function storedRows(parsed: ParsedBlock, block: string, firstOrdinal: number): StoredRow[] {
  const rows: StoredRow[] = new Array(parsed.count);
  for (let i = 0; i < parsed.count; i++) {
    rows[i] = {
      ordinal: firstOrdinal + i,
      scenarioId: parsed.scenarioIds[i],
      rolloutIndex: nullable(parsed.rolloutIndex[i]),
      evalRun: nullable(parsed.evalRun[i]),
      reward: nullable(parsed.reward[i]),
      goldState: GOLD_STATES[parsed.goldState[i]],
      replyLength: parsed.replyLength[i],
      json: parsed.rewritten[i] ?? block.slice(parsed.starts[i], parsed.ends[i]),
    };
  }
  return rows;
}

/** The typed arrays of a parsed block, to transfer rather than copy between threads. */
export function transferList(parsed: ParsedBlock): ArrayBuffer[] {
  return [parsed.starts, parsed.ends, parsed.rolloutIndex, parsed.evalRun, parsed.reward, parsed.replyLength, parsed.goldState].map((array) => array.buffer as ArrayBuffer);
}
