// Splits a file into blocks of whole lines by byte position, so that any block can be read on its own, by any
// parse worker, without reading the ones before it: the block of the byte range [from, to) holds the lines that
// start within it. Blocks stay bytes (split on the newline byte, never inside a UTF-8 character); decoding
// happens where they are parsed.
import fs from 'node:fs';

export const BLOCK_BYTES = 1 << 20;

const SCAN_BYTES = 4096;

/** The first blocks are smaller, so the first rows reach the writer sooner while the workers warm up. */
const FIRST_BLOCKS = 4;

/** The byte ranges of a file's blocks, in order, covering it exactly; at least one (empty for an empty file). */
export function blockRanges(fileBytes: number, blockBytes = BLOCK_BYTES): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  const small = Math.max(1, Math.floor(blockBytes / FIRST_BLOCKS));
  let from = 0;
  do {
    const to = Math.min(fileBytes, from + (ranges.length < FIRST_BLOCKS ? small : blockBytes));
    ranges.push([from, to]);
    from = to;
  } while (from < fileBytes);
  return ranges;
}

/** The first line start at or after `position`: 0, or just past a newline; the file's size when none is. */
function lineStartFrom(fd: number, position: number, size: number): number {
  if (position <= 0) return 0;
  if (position >= size) return size;
  const scan = Buffer.allocUnsafe(SCAN_BYTES);
  // A line starts at `position` when the byte before it is a newline, so the scan begins one byte early.
  for (let at = position - 1; at < size; at += SCAN_BYTES) {
    const read = fs.readSync(fd, scan, 0, Math.min(SCAN_BYTES, size - at), at);
    const newline = scan.subarray(0, read).indexOf(0x0a);
    if (newline !== -1) return at + newline + 1;
    if (read === 0) break;
  }
  return size;
}

/** Room beyond a block's nominal size, so its memory can be reused for the next block (lines overhang). */
const HEADROOM_BYTES = 256 * 1024;

/**
 * The block of the range [from, to) of an open file of `size` bytes, possibly empty. It lies in `spare` when
 * that is large enough (memory recycled from an earlier block), else in fresh memory of its own; either way it
 * can be transferred.
 */
export function readLineBlock(fd: number, size: number, from: number, to: number, spare?: ArrayBuffer): Buffer {
  const start = lineStartFrom(fd, from, size);
  const end = lineStartFrom(fd, to, size);
  const length = Math.max(0, end - start);
  const block =
    spare && spare.byteLength >= length ? Buffer.from(spare, 0, length) : Buffer.allocUnsafeSlow(Math.max(length, BLOCK_BYTES + HEADROOM_BYTES)).subarray(0, length);
  let filled = 0;
  while (filled < block.length) {
    const read = fs.readSync(fd, block, filled, block.length - filled, start + filled);
    if (read === 0) return block.subarray(0, filled);
    filled += read;
  }
  return block;
}

/** Reads one block of a file by path (a parse worker's unit of work); `size` is the file's size when the import began. */
export function readFileBlock(file: string, size: number, from: number, to: number, spare?: ArrayBuffer): Buffer {
  const fd = fs.openSync(file, 'r');
  try {
    return readLineBlock(fd, size, from, to, spare);
  } finally {
    fs.closeSync(fd);
  }
}
