// Parses a block of complete JSONL lines (bytes) into rows' columns and per-line errors (runs in an import worker).
// The result is columnar and holds no copy of a row that is stored as it came: only where its line lies in the
// block's bytes, which travel back with it (transferred, not copied) and are stored as they are.
import { isAscii, isUtf8 } from 'node:buffer';
import type { ImportLineError } from '../../shared/api/datasets';
import type { InsertRowValues } from '../db/repos/rows';
import { parseRowLine, type RowCheck } from './parse-row-line';
import { rowColumns, type RowColumns } from './row-columns';

const GOLD_STATES = ['none', 'pass', 'fail'];
const NEWLINE = 0x0a;

export interface ParsedBlock {
  count: number;
  /** The block's bytes, from which unchanged rows are stored. */
  bytes: Uint8Array;
  /** Where each row's line lies in `bytes` (trimmed). */
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

/** A block's bytes in memory of their own, so they can be transferred to a worker and back. */
export function encodeBlock(text: string): Uint8Array {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text);
  return bytes;
}

/** Line numbers in errors count from 1 within the block. Blank lines are skipped silently. */
export function parseBlock(block: Uint8Array, fullCheck: RowCheck): ParsedBlock {
  const bytes = Buffer.from(block.buffer, block.byteOffset, block.byteLength);
  const capacity = countNewlines(bytes) + 1;
  const parsed: ParsedBlock = {
    count: 0,
    bytes: block,
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
  // Most JSONL is ASCII (Python's json.dumps escapes everything else), which decodes the fast way, as latin1.
  // Lines are decoded one by one: small strings are cheap for V8, a 1 MiB one is not.
  const ascii = isAscii(bytes);
  const wholeBlockUtf8 = ascii || isUtf8(bytes);
  let start = 0;
  while (start < bytes.length) {
    let end = bytes.indexOf(NEWLINE, start);
    if (end === -1) end = bytes.length;
    parsed.lineCount++;
    let from = start;
    let to = end;
    // Bytes up to 32 are ASCII whitespace and controls; no byte of a multi-byte character is that small.
    while (from < to && bytes[from] <= 32) from++;
    // A byte order mark (Windows editors write one; `cat` of such files puts one mid-file) is not part of the row.
    if (to - from >= 3 && bytes[from] === 0xef && bytes[from + 1] === 0xbb && bytes[from + 2] === 0xbf) from += 3;
    while (to > from && bytes[to - 1] <= 32) to--;
    if (to > from) {
      if (!wholeBlockUtf8 && !isUtf8(bytes.subarray(from, to))) {
        parsed.errors.push({ line: parsed.lineCount, message: 'not valid UTF-8 text' });
      } else {
        const line = bytes.toString(ascii ? 'latin1' : 'utf8', from, to);
        const result = parseRowLine(line, fullCheck);
        if (result.ok) addParsedRow(parsed, result.row, result.unchanged, from, to);
        else parsed.errors.push({ line: parsed.lineCount, message: result.message });
      }
    }
    start = end + 1;
  }
  return parsed;
}

/** A row that still overflows the stack (parseRowLine's depth scan should stop any) is its line's error, never the block's. */
function addParsedRow(parsed: ParsedBlock, row: Record<string, unknown>, unchanged: boolean, from: number, to: number): void {
  let columns: RowColumns;
  let rewritten: string | null;
  try {
    columns = rowColumns(row);
    rewritten = unchanged ? null : JSON.stringify(row);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    parsed.errors.push({ line: parsed.lineCount, message: `cannot be read: ${error.message}` });
    return;
  }
  addRow(parsed, columns, from, to, rewritten);
}

function addRow(parsed: ParsedBlock, row: RowColumns, from: number, to: number, rewritten: string | null): void {
  const i = parsed.count++;
  parsed.starts[i] = from;
  parsed.ends[i] = to;
  parsed.rewritten.push(rewritten);
  parsed.scenarioIds.push(row.scenarioId);
  parsed.rolloutIndex[i] = row.rolloutIndex ?? Number.NaN;
  parsed.evalRun[i] = row.evalRun ?? Number.NaN;
  parsed.reward[i] = row.reward ?? Number.NaN;
  parsed.replyLength[i] = row.replyLength;
  parsed.goldState[i] = Math.max(0, GOLD_STATES.indexOf(row.goldState));
}

function countNewlines(bytes: Buffer): number {
  let count = 0;
  for (let at = bytes.indexOf(NEWLINE); at !== -1; at = bytes.indexOf(NEWLINE, at + 1)) count++;
  return count;
}

const nullable = (value: number): number | null => (Number.isNaN(value) ? null : value);

/** Hands each of the block's rows, numbered from firstOrdinal, to `insert`; unchanged rows as their bytes. */
export function insertParsedRows(parsed: ParsedBlock, firstOrdinal: number, insert: InsertRowValues): void {
  const { buffer, byteOffset } = parsed.bytes;
  for (let i = 0; i < parsed.count; i++) {
    insert(
      firstOrdinal + i,
      parsed.scenarioIds[i],
      nullable(parsed.rolloutIndex[i]),
      nullable(parsed.evalRun[i]),
      nullable(parsed.reward[i]),
      GOLD_STATES[parsed.goldState[i]],
      parsed.replyLength[i],
      // A plain Uint8Array view: SQLite takes any byte view, and a Buffer costs V8 several times more to make.
      parsed.rewritten[i] ?? new Uint8Array(buffer, byteOffset + parsed.starts[i], parsed.ends[i] - parsed.starts[i]),
    );
  }
}

/** The typed arrays of a parsed block, to transfer rather than copy between threads. */
export function transferList(parsed: ParsedBlock): ArrayBuffer[] {
  return [parsed.bytes, parsed.starts, parsed.ends, parsed.rolloutIndex, parsed.evalRun, parsed.reward, parsed.replyLength, parsed.goldState].map((array) => array.buffer as ArrayBuffer);
}
