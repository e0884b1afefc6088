// A `{path}` row source inside a stats worker: the JSONL file read and each line parsed as an import would
// (parseRowLine with the full row check). A line that is JSON but not a row is kept as it is (the statistics
// read odd rows the SDK's way); a line that is not JSON is a bad_input error naming file:line.
// A statistic with a fold (pass_at) folds the rows as they are parsed instead of keeping them, and a large file
// is cut in two at a line (file-parts.ts), the second half folded by another thread (stats-worker.ts), the two
// folds merged.
// (A reader that parsed only the fields a statistic reads was tried: stepping over the rest in JavaScript
// costs about what V8's JSON.parse of the whole 0.5 KiB row does, so every line is parsed whole.)
import { isAscii, isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import { StatsValueError } from '../../shared/stats/errors';
import type { BoundFold } from '../../shared/stats/registry/define';
import { parseRowLine, type RowCheck } from '../datasets/parse-row-line';
import type { ByteRange } from './file-parts';

/** The full row check carries zod; it loads only when a line needs it (most clean files never do). */
let fullCheck: RowCheck | null = null;

/** A file that is not there: the pool turns it into a `not_found` API error. */
export class MissingFileError extends Error {}

const badLine = (file: string, number: number, message: string) => new StatsValueError(`${file}:${number}: ${message}; fix or remove that line`);

/** The first line of bytes that is not valid UTF-8 (1-based, as `import` names it) and the byte where it starts. */
function firstBadUtf8Line(bytes: Buffer): { line: number; start: number } {
  let line = 1;
  let start = 0;
  for (; start < bytes.length; line++) {
    let end = bytes.indexOf(10, start);
    if (end < 0) end = bytes.length;
    if (!isUtf8(bytes.subarray(start, end))) break;
    start = end + 1;
  }
  return { line, start };
}

function cannotRead(file: string, error: unknown): Error {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new MissingFileError(`no such file: ${file} (give a JSONL file or a dataset id)`);
  if (code === 'EISDIR') return new StatsValueError(`${file} is a folder; give a JSONL file`);
  return new StatsValueError(`cannot read ${file}: ${(error as Error).message}`);
}

/** A line refused inside a part of a file: its number within the part, and why (the caller names file:line). */
export class PartLineError extends Error {
  constructor(readonly line: number, readonly reason: string) {
    super(reason);
  }
}

/**
 * Bytes read at a time. Small on purpose: what costs is fresh memory (each page's first touch is a page fault, a
 * slow one on a virtual machine), and a block this size is read into one buffer again and again and decodes to a
 * string in V8's young generation, whose pages are reused (past 128 KiB a string is a large object, in pages of its
 * own). On 2 cores here, a 28 MB file read whole and then decoded took some 160 ms before its first line was
 * parsed; by blocks, reading and cutting it into lines takes about 40 ms, and `stats pass-at FILE` on 100k rows
 * went from a median of 825 to 696 ms (ten alternated runs each).
 */
const BLOCK_BYTES = 64 << 10;

/**
 * The whole lines in bytes [0, end) as text: ASCII as Latin-1 (the same string, about twice as fast), else UTF-8. Never
 * decoded into U+FFFD: the text stops before the first line that is not UTF-8, and `badLine` numbers that line
 * within these bytes (null when every line is UTF-8).
 */
function decodeLines(bytes: Buffer, end: number): { text: string; badLine: number | null } {
  const part = bytes.subarray(0, end);
  if (isAscii(part)) return { text: bytes.toString('latin1', 0, end), badLine: null };
  if (isUtf8(part)) return { text: bytes.toString('utf8', 0, end), badLine: null };
  const bad = firstBadUtf8Line(part);
  return { text: bytes.toString('utf8', 0, bad.start), badLine: bad.line };
}

/** The lines of `text` (whole lines, each ended by a newline but perhaps the last) parsed in order; returns the last line's number. */
async function parseLines(text: string, number: number, onRow: (row: unknown) => void): Promise<number> {
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    number++;
    let line = text.slice(start, end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end);
    start = end + 1;
    if (line.charCodeAt(0) === 0xfeff) line = line.slice(1); // a byte order mark is not part of the row
    if (line.trim() === '') continue;
    let row = parseWhole(line, number);
    if (row === undefined) {
      // Rare (a row the fast check says no to): load zod's full check once, then read the line again.
      fullCheck ??= (await import('../datasets/row-check')).rowProblem;
      row = parseWhole(line, number);
    }
    onRow(row);
  }
  return number;
}

/** The line as an import parses it; undefined when it needs the full check and that has not loaded yet. */
function parseWhole(line: string, number: number): unknown {
  let deferred = false;
  const parsed = parseRowLine(line, (row) => {
    if (fullCheck) return fullCheck(row);
    deferred = true;
    return 'the full row check is not loaded yet';
  });
  if (deferred) return undefined;
  if (parsed.ok) return parsed.row;
  // Refused everywhere (nesting too deep, a string reward): the same message as `import` gives.
  if (parsed.refused) throw new PartLineError(number, parsed.message);
  try {
    return JSON.parse(line);
  } catch {
    throw new PartLineError(number, parsed.message);
  }
}

/**
 * Each row of the file (or of a part of it) in order, parsed as an import parses it, handed to `onRow`; resolves
 * with the number of lines read. A refused line throws PartLineError with its number within the part (the first
 * refused line in file order, whether it is not UTF-8 or not a row). The bytes are read by blocks into one buffer;
 * a line longer than the buffer grows it.
 */
async function eachRow(file: string, range: ByteRange | undefined, onRow: (row: unknown) => void): Promise<number> {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (error) {
    throw cannotRead(file, error);
  }
  try {
    const read = (into: Buffer, at: number, length: number, position: number) => {
      try {
        return fs.readSync(fd, into, at, length, position);
      } catch (error) {
        throw cannotRead(file, error);
      }
    };
    const end = range ? range.end : Infinity;
    let position = range ? range.start : 0;
    let bytes = Buffer.allocUnsafeSlow(BLOCK_BYTES);
    let held = 0; // bytes at the buffer's start after the last whole line handed on: the start of the next line
    let number = 0;
    for (;;) {
      if (held === bytes.length) {
        const larger = Buffer.allocUnsafeSlow(bytes.length * 2); // a line longer than the buffer
        bytes.copy(larger, 0, 0, held);
        bytes = larger;
      }
      const got = position < end ? read(bytes, held, Math.min(bytes.length - held, end - position), position) : 0;
      position += got;
      const filled = held + got;
      const last = got === 0 || position >= end;
      // Whole lines only: a newline byte never occurs inside a UTF-8 sequence, so each block decodes on its own.
      const linesEnd = last ? filled : bytes.lastIndexOf(10, filled - 1) + 1;
      if (linesEnd > 0) {
        const { text, badLine } = decodeLines(bytes, linesEnd);
        const before = number;
        number = await parseLines(text, number, onRow); // the lines before a bad one first: one of them may be refused
        if (badLine !== null) throw new PartLineError(before + badLine, 'not valid UTF-8 text'); // in the same words as `import`
      }
      if (last) return number;
      held = filled - linesEnd;
      bytes.copyWithin(0, linesEnd, filled);
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** A PartLineError as the bad_input error naming file:line (`before` lines precede the part). */
function namedLine(file: string, error: unknown, before = 0): unknown {
  return error instanceof PartLineError ? badLine(file, before + error.line, error.reason) : error;
}

/** The rows of a JSONL file, each parsed as an import parses it. */
export async function readFileRows(file: string): Promise<unknown[]> {
  const rows: unknown[] = [];
  try {
    await eachRow(file, undefined, (row) => rows.push(row));
  } catch (error) {
    throw namedLine(file, error);
  }
  return rows;
}

/** A part of a file folded by a statistic's fold: its state and its line count, or the line it refused. */
export async function foldFilePart<State>(file: string, range: ByteRange | undefined, fold: BoundFold<State>): Promise<{ state: State; lines: number }> {
  const state = fold.start();
  const lines = await eachRow(file, range, (row) => fold.add(state, row));
  return { state, lines };
}

/** A file's second part, from `cut` on, being folded elsewhere (another thread). */
export interface SecondPart<State> {
  cut: number;
  folded: Promise<{ state: State; lines: number }>;
}

/**
 * A file folded by a statistic's fold, its second part folded by another thread when `second` is given: the rows
 * are never all held as objects, and two cores parse at once. Errors name file:line as a whole-file read would.
 */
export async function foldFile<State>(file: string, fold: BoundFold<State>, second?: SecondPart<State> | null): Promise<State> {
  if (!second) {
    try {
      return (await foldFilePart(file, undefined, fold)).state;
    } catch (error) {
      throw namedLine(file, error);
    }
  }
  second.folded.catch(() => undefined); // awaited below, after the first part (whose errors come first in the file)
  let first: { state: State; lines: number };
  try {
    first = await foldFilePart(file, { start: 0, end: second.cut }, fold);
  } catch (error) {
    throw namedLine(file, error);
  }
  try {
    return fold.merge(first.state, (await second.folded).state);
  } catch (error) {
    throw namedLine(file, error, first.lines);
  }
}

/** Files kept per worker: a job on several (compare, delta, decontaminate) reads each once. */
const MAX_FILES = 4;

/** Files read (or being read), kept while unchanged (size and mtime), for the next job on the same rows. */
export class FileRows {
  private readonly cache = new Map<string, { stamp: string; rows: Promise<unknown[]> }>();

  read(file: string): Promise<unknown[]> {
    let stamp = '';
    try {
      const stat = fs.statSync(file);
      stamp = `${stat.size}:${stat.mtimeMs}`;
    } catch {
      // readFileRows says what is wrong with the path
    }
    const cached = this.cache.get(file);
    if (cached && stamp && cached.stamp === stamp) return cached.rows;
    const rows = readFileRows(file);
    this.cache.delete(file);
    if (stamp) {
      this.cache.set(file, { stamp, rows });
      for (const key of this.cache.keys()) if (this.cache.size > MAX_FILES) this.cache.delete(key);
    }
    rows.catch(() => {
      if (this.cache.get(file)?.rows === rows) this.cache.delete(file);
    });
    return rows;
  }
}
