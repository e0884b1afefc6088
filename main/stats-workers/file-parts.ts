// Where a large JSONL file is cut in two, so that two threads fold a part each: whole lines on either side. Apart
// from the reading of rows (file-rows.ts) because the CLI cuts the file before any statistics thread has started,
// and loads only this to do it.
import fs from 'node:fs';

/** A part of a file by bytes; `start` is 0 or just after a newline, so the part holds whole lines. */
export interface ByteRange {
  start: number;
  end: number;
}

/** Files smaller than this are folded in one thread: a second thread's start would cost more than it saves. */
export const SPLIT_MIN_BYTES = 4 << 20;

/**
 * How far past the cut's place a newline is looked for: a first small read finds one in nearly every file (rows are
 * some 0.3-50 KB), a larger one after it in files of long rows. Each read takes fresh memory: 1 MiB at once cost
 * some 3 ms before the first thread could start.
 */
const PROBES = [64 << 10, 1 << 20];

/** The offset of the first newline in [from, end) of the open file, or -1. */
function newlineFrom(fd: number, from: number, end: number): number {
  for (const probe of PROBES) {
    const bytes = Buffer.allocUnsafe(Math.min(probe, end - from));
    const at = bytes.subarray(0, fs.readSync(fd, bytes, 0, bytes.length, from)).indexOf(10);
    if (at >= 0) return from + at;
  }
  return -1;
}

/**
 * The part of a large file to fold in another thread: whole lines from just after the first newline at or past
 * `share` of the file, to its end; null when it is not worth it, or when the file cannot be read (the fold of the
 * whole file then says what is wrong with it).
 */
export function secondPartOf(file: string, share = 0.5): ByteRange | null {
  let fd: number | null = null;
  try {
    const size = fs.statSync(file).size;
    if (size < SPLIT_MIN_BYTES) return null;
    fd = fs.openSync(file, 'r');
    const newline = newlineFrom(fd, Math.floor(size * share), size);
    return newline >= 0 && newline + 1 < size ? { start: newline + 1, end: size } : null;
  } catch {
    return null;
  } finally {
    if (fd !== null) fs.closeSync(fd);
  }
}
