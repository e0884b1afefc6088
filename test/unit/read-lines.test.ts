import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLineBlocks } from '../../main/datasets/read-lines';
import { tempDir } from '../helpers/temp';

describe('readLineBlocks', () => {
  it('gives back every line whole across 1 MiB chunks, multi-byte characters included', async () => {
    const file = path.join(tempDir(), 'lines.jsonl');
    const lines = Array.from({ length: 30_000 }, (_, i) => JSON.stringify({ i, text: i % 7 ? 'plain ascii text' : 'caf\u00e9 \u2713 \u65e5\u672c \u{1f600}'.repeat(i % 5) }));
    fs.writeFileSync(file, lines.join('\n'));
    let text = '';
    let blocks = 0;
    for await (const block of readLineBlocks(file)) {
      text += block;
      blocks++;
    }
    expect(blocks).toBeGreaterThan(1);
    expect(text.split('\n')).toEqual(lines);
  });
});
