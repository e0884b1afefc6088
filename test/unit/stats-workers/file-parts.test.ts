// Where a large file is cut for two threads (file-parts.ts): just after the first newline at or past the share asked,
// found by a small read and, for a long line, a larger one; never a cut inside a line, never an empty second part.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { secondPartOf, SPLIT_MIN_BYTES } from '../../../main/stats-workers/file-parts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wd-file-parts-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function write(name: string, content: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  return file;
}

/** Lines of `width` bytes (newline included) up to `size` bytes. */
const lines = (width: number, size: number) => `${'x'.repeat(width - 1)}\n`.repeat(Math.ceil(size / width));

describe('secondPartOf', () => {
  it('cuts just after the first newline at or past the share, and the part runs to the end', () => {
    const text = lines(1000, SPLIT_MIN_BYTES + 5000);
    const file = write('even.jsonl', text);
    const part = secondPartOf(file);
    expect(part).toEqual({ start: text.indexOf('\n', Math.floor(text.length / 2)) + 1, end: text.length });
    expect(text[part!.start - 1]).toBe('\n');
    const quarter = secondPartOf(file, 0.25)!;
    expect(quarter.start).toBe(text.indexOf('\n', Math.floor(text.length / 4)) + 1);
  });

  it('finds the newline past a line longer than the first read (some 64 KiB)', () => {
    const size = SPLIT_MIN_BYTES + 10;
    const half = Math.floor(size / 2);
    // A line of 300 KB straddles the middle: its end is the cut.
    const text = `${'a'.repeat(half - 100_000)}\n${'b'.repeat(300_000)}\n${'c'.repeat(size - half - 200_002)}\n`;
    const part = secondPartOf(write('long-line.jsonl', text));
    expect(part).toEqual({ start: half - 100_000 + 1 + 300_000 + 1, end: text.length });
  });

  it('no part for a small file, a file whose last line holds the middle, a missing file or a folder', () => {
    expect(secondPartOf(write('small.jsonl', lines(100, SPLIT_MIN_BYTES - 200)))).toBeNull();
    expect(secondPartOf(write('one-line.jsonl', `${'z'.repeat(SPLIT_MIN_BYTES + 10)}\n`))).toBeNull();
    expect(secondPartOf(path.join(dir, 'missing.jsonl'))).toBeNull();
    expect(secondPartOf(dir)).toBeNull();
  });
});
