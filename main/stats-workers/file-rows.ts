// A `{path}` row source inside a stats worker: the JSONL file read and each line parsed as an import would
// (parseRowLine with the full row check). A line that is JSON but not a row is kept as it is (the statistics
// read odd rows the SDK's way); a line that is not JSON is a bad_input error naming file:line.
// A statistic with a fold (pass_at) folds the rows as they are parsed instead of keeping them, and a large file
// is cut in two at a line (file-parts.ts), the second half folded by another thread (stats-worker.ts), the two
// folds merged.
// Each row holds only the fields its statistic reads (row-projection.ts): a v1 row (it has schema_version: the
// import keeps it as parsed) whose reward is not a string is read for those fields alone, its other members stepped
// over, checked for their strings and brackets only (an import, which stores them, checks them in full); any other
// line goes the whole way (JSON.parse, the import's shapes and checks, with their messages) and is then cut to the
// fields. A value read later (a large one is parsed on first use) that is not JSON names its line too.
// (A reader stepping over members in a JavaScript loop was tried first: on 0.5 KiB rows it cost what V8's JSON.parse
// of the whole row does. A regular expression steps over them at a third of JSON.parse's time a character.)
import { isAscii, isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import { StatsValueError } from '../../shared/stats/errors';
import type { BoundFold } from '../../shared/stats/registry/define';
import { parseRowLine, type RowCheck } from '../datasets/parse-row-line';
import { LazyFieldError, PROJECT_MIN_CHARS, pickFields, projection, projectText, type Projection, type RowFields } from '../rows/row-projection';
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

/** How rows are handed on: whole (fields null), or cut to a statistic's fields; `transient` when each is let go. */
interface LineReading {
  fields: Projection | null;
  transient: boolean;
}

/** The fields a file reader looks at besides a statistic's own: whether a row is v1, and its reward's type. */
const NOTED = ['schema_version', 'reward'];
const QUOTE = 0x22;

/** The reading for a statistic's fields. */
function lineReading(reads: RowFields, transient: boolean, late: readonly string[] = []): LineReading {
  return { fields: reads === 'row' ? null : projection(reads, NOTED, transient ? late : []), transient };
}

const WHOLE: LineReading = { fields: null, transient: false };

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A v1 row read for its fields alone, or undefined (the line goes the whole way). */
function projectedRow(line: string, fields: Projection, transient: boolean): unknown {
  const row = projectText(line, fields, transient);
  // notes: schema_version's value (0: absent, not a v1 row), reward's (a string is refused with a message)
  return row !== undefined && fields.notes[0] !== 0 && fields.notes[1] !== QUOTE ? row : undefined;
}

/** The lines of `text` (whole lines, each ended by a newline but perhaps the last) parsed in order; returns the last line's number. */
async function parseLines(text: string, number: number, onRow: (row: unknown) => void, reading: LineReading): Promise<number> {
  const fields = reading.fields;
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    number++;
    let line = text.slice(start, end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end);
    start = end + 1;
    if (line.charCodeAt(0) === 0xfeff) line = line.slice(1); // a byte order mark is not part of the row
    if (line.trim() === '') continue;
    let row = fields && line.length >= PROJECT_MIN_CHARS ? projectedRow(line, fields, reading.transient) : undefined;
    if (row === undefined) {
      row = parseWhole(line, number);
      if (row === undefined) {
        // Rare (a row the fast check says no to): load zod's full check once, then read the line again.
        fullCheck ??= (await import('../datasets/row-check')).rowProblem;
        row = parseWhole(line, number);
      }
      if (fields && isPlainObject(row)) row = pickFields(row, fields);
    }
    try {
      onRow(row);
    } catch (error) {
      if (error instanceof LazyFieldError) throw new PartLineError(number, error.message);
      throw error;
    }
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
async function eachRow(file: string, range: ByteRange | undefined, onRow: (row: unknown) => void, reading: LineReading = WHOLE): Promise<number> {
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
        number = await parseLines(text, number, onRow, reading); // the lines before a bad one first: one of them may be refused
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

/** The rows of a JSONL file, each parsed as an import parses it, holding only the fields `reads` names. */
export async function readFileRows(file: string, reads: RowFields = 'row'): Promise<unknown[]> {
  const rows: unknown[] = [];
  try {
    await eachRow(file, undefined, (row) => rows.push(row), lineReading(reads, false));
  } catch (error) {
    throw namedLine(file, error);
  }
  return rows;
}

/** A part of a file folded by a statistic's fold: its state and its line count, or the line it refused. */
export async function foldFilePart<State>(file: string, range: ByteRange | undefined, fold: BoundFold<State>): Promise<{ state: State; lines: number }> {
  const state = fold.start();
  const lines = await eachRow(file, range, (row) => fold.add(state, row), lineReading(fold.reads, true, fold.rarely));
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

/** Rows that hold `held` hold everything `wanted` reads (a statistic reads extra fields as whole rows carry them). */
function covers(held: RowFields, wanted: RowFields): boolean {
  if (held === 'row') return true;
  return wanted !== 'row' && wanted.every((field) => held.includes(field));
}

/** Files read (or being read), kept while unchanged (size and mtime), for the next job on the same rows and fields. */
export class FileRows {
  private readonly cache = new Map<string, { stamp: string; rows: Promise<unknown[]>; reads: RowFields }>();

  read(file: string, reads: RowFields = 'row'): Promise<unknown[]> {
    let stamp = '';
    try {
      const stat = fs.statSync(file);
      stamp = `${stat.size}:${stat.mtimeMs}`;
    } catch {
      // readFileRows says what is wrong with the path
    }
    const cached = this.cache.get(file);
    if (cached && stamp && cached.stamp === stamp && covers(cached.reads, reads)) return cached.rows;
    const rows = readFileRows(file, reads);
    this.cache.delete(file);
    if (stamp) {
      this.cache.set(file, { stamp, rows, reads });
      for (const key of this.cache.keys()) if (this.cache.size > MAX_FILES) this.cache.delete(key);
    }
    rows.catch(() => {
      if (this.cache.get(file)?.rows === rows) this.cache.delete(file);
    });
    return rows;
  }
}
