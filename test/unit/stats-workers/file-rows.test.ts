// A `{path}` source is read by blocks of 64 KiB into one buffer (file-rows.ts): lines that straddle blocks, lines
// longer than a block, UTF-8 across block ends, and the number of a refused line far into the file must come out
// exactly as a read of the whole file gives them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BoundFold } from '../../../shared/stats/registry/define';
import { foldFilePart, readFileRows } from '../../../main/stats-workers/file-rows';
import { StatsValueError } from '../../../shared/stats/errors';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wd-file-rows-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function write(name: string, content: string | Buffer): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  return file;
}

/** A fold that keeps the rows it is given, in order. */
const collect: BoundFold<unknown[]> = { start: () => [], add: (rows, row) => void rows.push(row), merge: (a, b) => a.concat(b), keepKey: null, reads: 'row', rarely: [] };

/** Rows of every length from a few bytes to 150 KiB (over two blocks), with accents and a four-byte character. */
function mixedRows(): Array<Record<string, unknown>> {
  const rows: Array<Record<string, unknown>> = [];
  for (let i = 0; i < 400; i++) {
    const size = i % 97 === 0 ? 150_000 : (i * 7919) % 3000;
    rows.push({ scenario_id: `tâche_${i % 50}`, rollout_index: i, prompt: `Où ☕ 𝄞 ${i}`, final_text: 'é'.repeat(size), steps: [], reward: i % 3 === 0 ? 1 : 0 });
  }
  return rows;
}

describe('file rows read by blocks', () => {
  it('gives every row of a file of many blocks, as JSON.parse of each line does', async () => {
    const rows = mixedRows();
    const text = rows.map((row) => JSON.stringify(row)).join('\n') + '\n';
    expect(Buffer.byteLength(text)).toBeGreaterThan(1 << 20);
    const read = (await readFileRows(write('mixed.jsonl', text))) as Array<Record<string, unknown>>;
    expect(read.length).toBe(rows.length);
    expect(read.map((row) => row.final_text)).toEqual(rows.map((row) => row.final_text));
    expect(read.map((row) => row.prompt)).toEqual(rows.map((row) => row.prompt));
  });

  it('reads CRLF lines, blank lines, a byte order mark and a last line with no newline', async () => {
    const file = write('crlf.jsonl', '\ufeff{"prompt": "a", "final_text": "x", "steps": [], "reward": 1}\r\n\r\n   \n{"prompt": "b", "final_text": "y", "steps": [], "reward": 0}');
    const read = (await readFileRows(file)) as Array<Record<string, unknown>>;
    expect(read.map((row) => [row.prompt, row.reward])).toEqual([
      ['a', 1],
      ['b', 0],
    ]);
  });

  it('counts lines across blocks and parts: a part ending at a cut has as many lines as newlines', async () => {
    const lines = mixedRows().map((row) => JSON.stringify(row));
    const file = write('parts.jsonl', lines.join('\n') + '\n');
    const cut = Buffer.byteLength(lines.slice(0, 250).join('\n') + '\n');
    const first = await foldFilePart(file, { start: 0, end: cut }, collect);
    const second = await foldFilePart(file, { start: cut, end: fs.statSync(file).size }, collect);
    expect(first.lines).toBe(250);
    expect(second.lines).toBe(150);
    expect([...first.state, ...second.state]).toEqual((await foldFilePart(file, undefined, collect)).state);
  });

  it('names the first refused line in the file, whether it is not UTF-8 or not JSON, however far in', async () => {
    const lines = mixedRows().map((row) => JSON.stringify(row));
    const latin = write('latin.jsonl', Buffer.concat([Buffer.from(lines.slice(0, 300).join('\n') + '\n'), Buffer.from('{"prompt": "caf\xe9"}\n', 'latin1'), Buffer.from(lines.slice(300).join('\n'))]));
    await expect(readFileRows(latin)).rejects.toThrow(new StatsValueError(`${latin}:301: not valid UTF-8 text; fix or remove that line`));
    const both = write('both.jsonl', Buffer.concat([Buffer.from(lines.slice(0, 200).join('\n') + '\n{"reward": \n'), Buffer.from(lines.slice(200, 300).join('\n') + '\n'), Buffer.from('{"prompt": "caf\xe9"}\n', 'latin1')]));
    await expect(readFileRows(both)).rejects.toThrow(`${both}:201: not valid JSON`);
  });

  it('within one block too: a line that is not JSON before one that is not UTF-8 is named, and the other way round', async () => {
    const good = '{"prompt": "a", "final_text": "x", "steps": [], "reward": 1}\n';
    const latin = Buffer.from('{"prompt": "caf\xe9"}\n', 'latin1');
    const jsonFirst = write('json-first.jsonl', Buffer.concat([Buffer.from(good.repeat(4) + '{"reward": \n' + good), latin, Buffer.from(good)]));
    await expect(readFileRows(jsonFirst)).rejects.toThrow(`${jsonFirst}:5: not valid JSON`);
    const utf8First = write('utf8-first.jsonl', Buffer.concat([Buffer.from(good.repeat(2)), latin, Buffer.from(good + '{"reward": \n')]));
    await expect(readFileRows(utf8First)).rejects.toThrow(`${utf8First}:3: not valid UTF-8 text`);
    const firstLine = write('utf8-line-1.jsonl', Buffer.concat([latin, Buffer.from(good)]));
    await expect(readFileRows(firstLine)).rejects.toThrow(`${firstLine}:1: not valid UTF-8 text`);
  });

  it('reads an empty file as no rows, and says what is wrong with a folder or a missing file', async () => {
    expect(await readFileRows(write('empty.jsonl', ''))).toEqual([]);
    await expect(readFileRows(dir)).rejects.toThrow(`${dir} is a folder; give a JSONL file`);
    await expect(readFileRows(path.join(dir, 'none.jsonl'))).rejects.toThrow('no such file');
  });
});

describe('file rows read for a statistic\'s fields', () => {
  const FIELDS = ['scenario_id', 'reward', 'final_text', 'messages', 'markers'];
  const pick = (row: unknown) => (row && typeof row === 'object' && !Array.isArray(row) ? Object.fromEntries(Object.entries(row).filter(([key]) => FIELDS.includes(key))) : row);

  it('gives each row the fields a whole read gives it, v1 rows and other shapes alike, values that are not rows as they are', async () => {
    const lines = [
      ...mixedRows().map((row) => JSON.stringify({ schema_version: '1', ...row, messages: [{ role: 'assistant', content: String(row.final_text).slice(0, 300) }], markers: { a: 1 } })),
      JSON.stringify({ question: 'q?', answer: 'a', reward: 1, scenario_id: 's' }), // load_traces spellings, normalized first
      JSON.stringify({ scenario_id: 'e', prompt: 'p', reward: 0 }), // an engine row: steps and final_text are added
      '[1, 2]',
      'null',
      '{"schema_version": "1", "prompt": "p", "steps": [], "final_text": "x", "reward": 1, "steps": [{"tool": "t"}]}',
    ];
    const file = write('fields.jsonl', lines.join('\n') + '\n');
    const whole = await readFileRows(file);
    const read = await readFileRows(file, FIELDS);
    expect(read).toEqual(whole.map(pick));
    const folded = (await foldFilePart(file, undefined, { ...collect, reads: FIELDS })).state;
    expect(JSON.stringify(folded)).toBe(JSON.stringify(whole.map(pick)));
  });

  it('refuses what a whole read refuses, with the same message and line', async () => {
    const good = '{"schema_version": "1", "prompt": "a", "final_text": "x", "steps": [], "reward": 1}\n';
    const stringReward = write('string-reward.jsonl', good + '{"schema_version": "1", "prompt": "a", "final_text": "x", "steps": [], "reward": "1"}\n');
    await expect(readFileRows(stringReward, ['reward'])).rejects.toThrow(`${stringReward}:2: reward is the string "1"`);
    const broken = write('broken.jsonl', good.repeat(3) + '{"schema_version": "1", "reward": 1, "steps": [}\n');
    await expect(readFileRows(broken, ['reward'])).rejects.toThrow(`${broken}:4: not valid JSON`);
  });

  it('names the line of a large value stepped over for its brackets that is not JSON once the statistic reads it', async () => {
    // Long enough (over PROJECT_MIN_CHARS) to be projected, with messages read lazily, not parsed whole.
    const messages = `[${'{"role": "user", "content": "hello there"}, '.repeat(30)}{"role" "x"}]`;
    const good = '{"schema_version": "1", "prompt": "a", "final_text": "", "steps": [], "reward": 1}\n';
    const file = write('lazy.jsonl', good.repeat(2) + `{"schema_version": "1", "prompt": "a", "final_text": "", "steps": [], "reward": 1, "messages": ${messages}}\n`);
    const reading: BoundFold<number> = { start: () => 0, add: (_n, row) => void (row as { messages?: unknown }).messages, merge: (a, b) => a + b, keepKey: null, reads: ['messages', 'reward'], rarely: [] };
    await expect(foldFilePart(file, undefined, reading)).rejects.toThrow(/not valid JSON \(messages: /);
    await expect(foldFilePart(file, undefined, reading)).rejects.toHaveProperty('line', 3);
  });
});
