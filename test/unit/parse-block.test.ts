import { describe, expect, it } from 'vitest';
import type { StoredRow } from '../../main/rows/index';
import { blockRowValues } from '../../main/rows/block-columns';
import { encodeBlock, parseBlock, type ParsedBlock } from '../../main/datasets/parse-block';
import { rowProblem } from '../../main/datasets/row-check';

/** The block's rows as the writer receives them, collected as objects. */
function storedRows(parsed: ParsedBlock, firstOrdinal: number): StoredRow[] {
  const rows: StoredRow[] = [];
  const { buffer, byteOffset } = parsed.bytes;
  for (let i = 0; i < parsed.count; i++) {
    const json = parsed.rewritten[i] ?? new Uint8Array(buffer, byteOffset + parsed.starts[i], parsed.ends[i] - parsed.starts[i]);
    rows.push({ ordinal: firstOrdinal + i, ...(blockRowValues(parsed.columns, i) as Omit<StoredRow, 'ordinal' | 'json'>), json });
  }
  return rows;
}

const row = (prompt: string, extra: Record<string, unknown> = {}) => JSON.stringify({ schema_version: '1', prompt, steps: [], final_text: 'ok', reward: 1, ...extra });

describe('parseBlock', () => {
  it('stores an unchanged row as its line, byte for byte, in ASCII and in UTF-8 blocks', () => {
    for (const prompt of ['plain', 'caf\u00e9 \u65e5\u672c \u{1f600}']) {
      const lines = [row(prompt), '', `  ${row('second', { scenario_id: 't1', rollout_index: 2 })}  `];
      const parsed = parseBlock(encodeBlock(lines.join('\n') + '\n'), rowProblem);
      expect(parsed.errors).toEqual([]);
      expect(parsed.lineCount).toBe(3);
      const rows = storedRows(parsed, 10);
      expect(rows.map((stored) => stored.ordinal)).toEqual([10, 11]);
      expect(rows.map((stored) => Buffer.from(stored.json).toString('utf8'))).toEqual([lines[0], lines[2].trim()]);
      expect(rows[1]).toMatchObject({ scenarioId: 't1', rolloutIndex: 2, reward: 1, goldState: 'none' });
    }
  });

  it('reports a line that is not UTF-8, not JSON or not a row by its number, and keeps the others', () => {
    const bad = Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]); // {"a":"\xff\xfe"}
    const bytes = Buffer.concat([Buffer.from(row('caf\u00e9') + '\n'), bad, Buffer.from('\n{"prompt": \n' + row('last') + '\n' + JSON.stringify({ schema_version: '1', prompt: 'p', steps: [], final_text: '', reward: true }))]);
    const parsed = parseBlock(new Uint8Array(bytes), rowProblem);
    expect(parsed.errors.map((error) => error.line)).toEqual([2, 3, 5]);
    expect(parsed.errors[0].message).toMatch(/UTF-8/);
    expect(parsed.errors[1].message).toMatch(/not valid JSON/);
    expect(parsed.errors[2].message).toMatch(/boolean/);
    expect(storedRows(parsed, 0).map((stored) => JSON.parse(Buffer.from(stored.json).toString('utf8')).prompt)).toEqual(['caf\u00e9', 'last']);
  });

  it('reads past a byte order mark at the start of a line (a Windows editor\'s, or two such files joined)', () => {
    const bom = '\ufeff';
    const parsed = parseBlock(encodeBlock(`${bom}${row('first')}\n${bom}${row('second')}\n`), rowProblem);
    expect(parsed.errors).toEqual([]);
    expect(storedRows(parsed, 0).map((stored) => Buffer.from(stored.json).toString('utf8'))).toEqual([row('first'), row('second')]);
  });

  it('stores a load_traces spelling as its rewritten row v1', () => {
    const parsed = parseBlock(encodeBlock(JSON.stringify({ question: 'q?', output: 'a.' })), rowProblem);
    const [stored] = storedRows(parsed, 0);
    expect(typeof stored.json).toBe('string');
    expect(JSON.parse(stored.json as string)).toMatchObject({ schema_version: '1', prompt: 'q?', final_text: 'a.' });
  });

  it('refuses nesting too deep with the line number and a plain message, and keeps the other lines', () => {
    const deep = `{"schema_version":"1","prompt":"p","steps":[],"final_text":"x","extra":${'['.repeat(200_000)}${']'.repeat(200_000)}}`;
    const inString = row('brackets in a string', { note: '['.repeat(5000) });
    const parsed = parseBlock(encodeBlock([row('a'), deep, inString].join('\n')), rowProblem);
    expect(parsed.errors).toEqual([{ line: 2, message: 'nested more than 512 levels deep (arrays and objects inside each other); flatten it' }]);
    expect(storedRows(parsed, 0).map((stored) => JSON.parse(Buffer.from(stored.json).toString('utf8')).prompt)).toEqual(['a', 'brackets in a string']);
  });

  it('refuses a reward written as a string, saying what to write instead', () => {
    const parsed = parseBlock(encodeBlock([row('a', { reward: '1' }), row('b', { reward: 'pass' })].join('\n')), rowProblem);
    expect(parsed.errors[0]).toEqual({ line: 1, message: expect.stringContaining('reward is the string "1", and a reward must be a number') });
    expect(parsed.errors[0].message).toMatch(/write "reward": 1$/);
    expect(parsed.errors[1].message).toMatch(/string "pass".*"reward": 1 or "reward": 0/);
    expect(parsed.count).toBe(0);
  });

  it('quotes a bad line with its control characters escaped', () => {
    const evil = 'x\u001b[2J\u001b]0;pwned\u0007 {}';
    const parsed = parseBlock(encodeBlock([evil, row('x', { steps: '\u001b[31mred' })].join('\n')), rowProblem);
    expect(parsed.errors.map((error) => error.line)).toEqual([1, 2]);
    for (const error of parsed.errors) expect(error.message).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(parsed.errors[0].message).toMatch(/not valid JSON \(.*\\x1b\[2J\\x1b\]0;pwned\\x07/);
  });
});
