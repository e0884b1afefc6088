import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { blockRanges, readFileBlock } from '../../main/datasets/file-blocks';
import { tempDir } from '../helpers/temp';

const NEWLINE = 0x0a;

function blocksOf(file: string, blockBytes: number): Buffer[] {
  const size = fs.statSync(file).size;
  return blockRanges(size, blockBytes).map(([from, to]) => readFileBlock(file, size, from, to));
}

describe('file blocks', () => {
  const lines = [
    '{"a":1}',
    '',
    '{"text":"caf\u00e9 \u2713 \u65e5\u672c \u{1f600}"}',
    'x'.repeat(5000), // longer than most block sizes below
    '   ',
    '{"b":2}',
    '\u{1f600}'.repeat(300),
  ];

  it('partition a file into whole lines for any block size, a last line without a newline included', () => {
    const file = path.join(tempDir(), 'lines.jsonl');
    const bytes = Buffer.from(lines.join('\n'));
    fs.writeFileSync(file, bytes);
    for (const blockBytes of [1, 2, 7, 64, 1000, 4096, 1 << 20]) {
      const blocks = blocksOf(file, blockBytes);
      // Together they are the file, byte for byte, and each (but the last) ends with a newline.
      expect(Buffer.concat(blocks).equals(bytes), `block size ${blockBytes}`).toBe(true);
      const filled = blocks.filter((block) => block.length > 0);
      filled.slice(0, -1).forEach((block) => expect(block[block.length - 1]).toBe(NEWLINE));
      // Every line is whole in exactly one block.
      const seen = blocks.flatMap((block) => (block.length ? block.toString('utf8').replace(/\n$/, '').split('\n') : []));
      expect(seen, `block size ${blockBytes}`).toEqual(lines);
    }
  });

  it('start small and cover the file exactly, an empty one too', () => {
    expect(blockRanges(0, 100)).toEqual([[0, 0]]);
    const ranges = blockRanges(1000, 100);
    expect(ranges.slice(0, 5)).toEqual([[0, 25], [25, 50], [50, 75], [75, 100], [100, 200]]);
    expect(ranges.at(-1)).toEqual([900, 1000]);
    ranges.slice(1).forEach(([from], i) => expect(from).toBe(ranges[i][1]));
  });

  it('stop at the size the import began with, even if the file grows', () => {
    const file = path.join(tempDir(), 'growing.jsonl');
    fs.writeFileSync(file, '{"a":1}\n{"b":2}\n');
    const size = fs.statSync(file).size;
    fs.appendFileSync(file, '{"c":3}\n');
    expect(readFileBlock(file, size, 0, 1 << 20).toString()).toBe('{"a":1}\n{"b":2}\n');
  });

  it('reuse spare memory for the next block when it is large enough', () => {
    const file = path.join(tempDir(), 'spare.jsonl');
    fs.writeFileSync(file, '{"a":1}\n');
    const spare = new ArrayBuffer(64);
    const block = readFileBlock(file, 8, 0, 8, spare);
    expect(block.buffer).toBe(spare);
    expect(block.toString()).toBe('{"a":1}\n');
    expect(readFileBlock(file, 8, 0, 8, new ArrayBuffer(4)).toString()).toBe('{"a":1}\n');
  });
});
