// Parses a block of complete JSONL lines (bytes) into rows' columns and per-line errors (runs in an import worker).
// The result is columnar and holds no copy of a row that is stored as it came: only where its line lies in the
// block's bytes, which travel back with it (transferred, not copied) and are stored as they are.
import { isAscii, isUtf8 } from 'node:buffer';
import type { ImportLineError } from '../../shared/api/datasets';
import { blockColumnBuffers, newBlockColumns, putBlockRow } from '../rows/block-columns';
import type { RowBlock } from '../rows/append';
import { parseRowLine, type RowCheck } from './parse-row-line';

const NEWLINE = 0x0a;

/** A parsed block: its rows (columnar, see rows/block-columns.ts) and the lines that were not rows. */
export interface ParsedBlock extends RowBlock {
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
    columns: newBlockColumns(capacity),
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
  const i = parsed.count;
  try {
    // Position i is taken only once the row is read whole; a row that fails is overwritten by the next one.
    putBlockRow(parsed.columns, i, row);
    parsed.rewritten[i] = unchanged ? null : JSON.stringify(row);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    parsed.errors.push({ line: parsed.lineCount, message: `cannot be read: ${error.message}` });
    return;
  }
  parsed.count++;
  parsed.starts[i] = from;
  parsed.ends[i] = to;
}

function countNewlines(bytes: Buffer): number {
  let count = 0;
  for (let at = bytes.indexOf(NEWLINE); at !== -1; at = bytes.indexOf(NEWLINE, at + 1)) count++;
  return count;
}

/** The typed arrays of a parsed block, to transfer rather than copy between threads. */
export function transferList(parsed: ParsedBlock): ArrayBuffer[] {
  return [...[parsed.bytes, parsed.starts, parsed.ends].map((array) => array.buffer as ArrayBuffer), ...blockColumnBuffers(parsed.columns)];
}
