// A `{path}` row source inside a stats worker: the JSONL file read and each line parsed as an import would
// (parseRowLine with the full row check). A line that is JSON but not a row is kept as it is (the statistics
// read odd rows the SDK's way); a line that is not JSON is a bad_input error naming file:line.
// (A reader that parsed only the fields a statistic reads was tried: stepping over the rest in JavaScript
// costs about what V8's JSON.parse of the whole 0.5 KiB row does, so every line is parsed whole.)
import { isAscii, isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import { StatsValueError } from '../../shared/stats/errors';
import { parseRowLine, type RowCheck } from '../datasets/parse-row-line';

/** The full row check carries zod; it loads only when a line needs it (most clean files never do). */
let fullCheck: RowCheck | null = null;

/** A file that is not there: the pool turns it into a `not_found` API error. */
export class MissingFileError extends Error {}

const badLine = (file: string, number: number, message: string) => new StatsValueError(`${file}:${number}: ${message}; fix or remove that line`);

/** The first line of bytes that is not valid UTF-8 (1-based), refused as `import` refuses it. */
function firstBadUtf8Line(bytes: Buffer): number {
  let line = 1;
  for (let start = 0; start < bytes.length; line++) {
    let end = bytes.indexOf(10, start);
    if (end < 0) end = bytes.length;
    if (!isUtf8(bytes.subarray(start, end))) return line;
    start = end + 1;
  }
  return line;
}

/** The file as text. Most row files are ASCII, which reads as Latin-1 in about half the time UTF-8 decoding takes, same string. */
function readText(file: string): string {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new MissingFileError(`no such file: ${file} (give a JSONL file or a dataset id)`);
    if (code === 'EISDIR') throw new StatsValueError(`${file} is a folder; give a JSONL file`);
    throw new StatsValueError(`cannot read ${file}: ${(error as Error).message}`);
  }
  if (isAscii(bytes)) return bytes.toString('latin1');
  // Never decoded into U+FFFD: a line that is not UTF-8 is refused with its number, in the same words as `import`.
  if (!isUtf8(bytes)) throw badLine(file, firstBadUtf8Line(bytes), 'not valid UTF-8 text');
  return bytes.toString('utf8');
}


/** The line as an import parses it; undefined when it needs the full check and that has not loaded yet. */
function parseWhole(line: string, file: string, number: number): unknown {
  let deferred = false;
  const parsed = parseRowLine(line, (row) => {
    if (fullCheck) return fullCheck(row);
    deferred = true;
    return 'the full row check is not loaded yet';
  });
  if (deferred) return undefined;
  if (parsed.ok) return parsed.row;
  // Refused everywhere (nesting too deep, a string reward): the same message as `import` gives.
  if (parsed.refused) throw badLine(file, number, parsed.message);
  try {
    return JSON.parse(line);
  } catch {
    throw badLine(file, number, parsed.message);
  }
}

/** The rows of a JSONL file, each parsed as an import parses it. */
export async function readFileRows(file: string): Promise<unknown[]> {
  const text = readText(file);
  const rows: unknown[] = [];
  const unchecked: Array<{ index: number; line: string; number: number }> = [];
  let start = 0;
  let number = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    number++;
    let line = text.slice(start, end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end);
    start = end + 1;
    if (line.charCodeAt(0) === 0xfeff) line = line.slice(1); // a byte order mark is not part of the row
    if (line.trim() === '') continue;
    const row = parseWhole(line, file, number);
    if (row === undefined) unchecked.push({ index: rows.length, line, number });
    rows.push(row);
  }
  if (unchecked.length) {
    fullCheck ??= (await import('../datasets/row-check')).rowProblem;
    for (const { index, line, number } of unchecked) rows[index] = parseWhole(line, file, number);
  }
  return rows;
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
