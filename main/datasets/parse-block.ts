// Parses a block of complete JSONL lines (bytes) into rows' columns and per-line errors (runs in an import worker).
// The result is columnar and holds no copy of a row that is stored as it came: only where its line lies in the
// block's bytes, which travel back with it (transferred, not copied) and are stored as they are.
import { isAscii, isUtf8 } from 'node:buffer';
import type { ImportLineError } from '../../shared/api/datasets';
import { blockColumnBuffers, newBlockColumns, putBlockRow } from '../rows/block-columns';
import type { RowBlock } from '../rows/append';
import { parseRowLine, type RowCheck } from './parse-row-line';
import { foldsKeptAtWrite } from '../../shared/stats/kept-folds';
import { encodeFoldState } from '../rows/fold-codec';

const NEWLINE = 0x0a;

/** A parsed block: its rows (columnar, see rows/block-columns.ts) and the lines that were not rows. */
export interface ParsedBlock extends RowBlock {
  errors: ImportLineError[];
  /** Lines the block held, blank ones included. */
  lineCount: number;
  /**
   * The folds a dataset keeps from its writing (foldsKeptAtWrite), of this block's rows as a reader will see them,
   * when its rows are large (FOLD_MIN_ROW_BYTES on average); null else. The import merges them in file order. Encoded
   * (fold-codec.ts) and transferred: a structured clone of a block's fold (maps of task sums) cost the parse worker
   * some 1.8 ms a block.
   */
  folds: Uint8Array[] | null;
}

/**
 * Blocks whose rows average this many bytes are folded as they are parsed. The fold costs some 0.8 us a row; the
 * parse of a 1.7 KB row some 8 us, of a 0.5 KB one 2.5 us: on rows as real runs write them the import slows by a
 * tenth or less and the first compare of two imports reads two kept folds instead of 200k rows (2.3 s against
 * 0.4 s here), while on small rows it would slow the import by a quarter (README: both ways measured).
 */
export const FOLD_MIN_ROW_BYTES = 1024;

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
    folds: null,
  };
  const folding = bytes.length >= FOLD_MIN_ROW_BYTES * capacity ? foldsKeptAtWrite() : null;
  const states = folding?.map((fold) => fold.start()) ?? null;
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
        if (!result.ok) parsed.errors.push({ line: parsed.lineCount, message: result.message });
        else if (addParsedRow(parsed, result.row, result.unchanged, from, to) && folding && states) {
          // As a reader will see it: a rewritten row is read back from the JSON stored for it.
          const rewritten = parsed.rewritten[parsed.count - 1];
          const row = rewritten === null ? result.row : (JSON.parse(rewritten) as unknown);
          for (let f = 0; f < folding.length; f++) folding[f].add(states[f], row);
        }
      }
    }
    start = end + 1;
  }
  parsed.folds = states?.map(encodeFoldState) ?? null;
  return parsed;
}

/** A row that still overflows the stack (parseRowLine's depth scan should stop any) is its line's error, never the block's. */
function addParsedRow(parsed: ParsedBlock, row: Record<string, unknown>, unchanged: boolean, from: number, to: number): boolean {
  const i = parsed.count;
  try {
    // Position i is taken only once the row is read whole; a row that fails is overwritten by the next one.
    putBlockRow(parsed.columns, i, row);
    parsed.rewritten[i] = unchanged ? null : JSON.stringify(row);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    parsed.errors.push({ line: parsed.lineCount, message: `cannot be read: ${error.message}` });
    return false;
  }
  parsed.count++;
  parsed.starts[i] = from;
  parsed.ends[i] = to;
  return true;
}

function countNewlines(bytes: Buffer): number {
  let count = 0;
  for (let at = bytes.indexOf(NEWLINE); at !== -1; at = bytes.indexOf(NEWLINE, at + 1)) count++;
  return count;
}

/** The typed arrays of a parsed block, to transfer rather than copy between threads. */
export function transferList(parsed: ParsedBlock): ArrayBuffer[] {
  return [...[parsed.bytes, parsed.starts, parsed.ends, ...(parsed.folds ?? [])].map((array) => array.buffer as ArrayBuffer), ...blockColumnBuffers(parsed.columns)];
}
