// Hostile input through the CLI bundle: task files and row files that are not UTF-8, nested too deep, carry
// terminal escapes, string rewards or out-of-range options are refused with the line and nothing is written.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { sdkRow } from '../fixtures/sdk-rows';
import { buildEngine, runCli, tempDir, writeJsonl } from '../helpers/temp';

const hostileTasks = path.resolve(__dirname, '../fixtures/tasks/hostile-tasks.jsonl');
// Raw control characters (ESC, BEL, CSI) on the screen; a newline or a tab is ours.
const RAW_CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
const DEEP = `{"schema_version":"1","prompt":"p","steps":[],"final_text":"x","extra":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;

describe('bad input through the CLI', () => {
  beforeAll(() => buildEngine());

  it('run: a hostile task file is refused with every bad line, escaped, and leaves no database behind', () => {
    const db = path.join(tempDir(), 'new.db');
    const result = runCli(['run', '--tasks', hostileTasks, '--agent', 'seeded', '--db', db]);
    expect(result.code).toBe(1);
    expect(fs.existsSync(db)).toBe(false);
    expect(fs.readdirSync(path.dirname(db))).toEqual([]); // no -wal / -shm either
    const err = result.stderr;
    expect(err).toMatch(/has 6 bad lines; nothing was run/);
    expect(err).toMatch(/line 2: not valid UTF-8 text/);
    expect(err).toMatch(/line 3: .*world names tool "get_order", which is not in tools \(the task declares no tools\)/);
    expect(err).toMatch(/line 4: .*fault on tool "refund", which is not in tools/);
    expect(err).toMatch(/line 5: tool "lookup": parameters is not a valid JSON Schema/);
    expect(err).toMatch(/line 6: nested more than 512 levels deep/);
    expect(err).toMatch(/line 7: not valid JSON \(.*\\x1b\[2J/);
    expect(err).not.toMatch(RAW_CONTROLS);
  });

  it('import --skip-invalid: a line nested too deep, one not UTF-8 and a string reward are skipped and reported', () => {
    const dir = tempDir();
    const db = path.join(dir, 'desk.db');
    const file = path.join(dir, 'hostile.jsonl');
    const lines = [JSON.stringify(sdkRow(0)), DEEP, JSON.stringify(sdkRow(1, { reward: '1' })), JSON.stringify(sdkRow(2))];
    fs.writeFileSync(file, Buffer.concat([Buffer.from(lines.join('\n') + '\n'), Buffer.from([0x7b, 0xff, 0x7d, 0x0a]), Buffer.from('x\u001b[31m\n')]));
    const result = runCli(['import', file, '--skip-invalid', '--db', db, '--json'], { WHILE_DESK_IMPORT_WORKERS: '2' });
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { rows_imported: number; rows_skipped: number; errors: Array<{ line: number; message: string }> };
    expect(report.rows_imported).toBe(2);
    expect(report.errors.map((e) => e.line)).toEqual([2, 3, 5, 6]);
    expect(report.errors[0].message).toMatch(/^nested more than 512 levels deep/);
    expect(report.errors[1].message).toMatch(/reward is the string "1".*write "reward": 1$/);
    expect(report.errors[2].message).toBe('not valid UTF-8 text');
    expect(report.errors[3].message).toMatch(/\\x1b\[31m/);

    const human = runCli(['import', file, '--db', path.join(dir, 'other.db')]);
    expect(human.code).toBe(1);
    expect(human.stderr).toMatch(/hostile\.jsonl:2: nested more than 512 levels deep/);
    expect(human.stderr).not.toMatch(RAW_CONTROLS);
  });

  it('stats on a file refuses a string reward with the same message as import', () => {
    const file = writeJsonl(path.join(tempDir(), 'rows.jsonl'), [sdkRow(0, { scenario_id: 'a', reward: 1 }), sdkRow(1, { scenario_id: 'a', reward: '1' })]);
    const result = runCli(['stats', 'pass-at', file, '--k', '1']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/rows\.jsonl:2: reward is the string "1".*write "reward": 1/);
  });

  it('stats on a file refuses a line that is not UTF-8 by its number, as import does (never U+FFFD)', () => {
    const file = path.join(tempDir(), 'rows.jsonl');
    fs.writeFileSync(file, Buffer.concat([Buffer.from(JSON.stringify(sdkRow(0, { scenario_id: 'a', reward: 1, final_text: 'caf\u00e9' })) + '\n'), Buffer.from([0x7b, 0xff, 0x7d, 0x0a])]));
    const result = runCli(['stats', 'pass-at', file, '--k', '1']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/rows\.jsonl:2: not valid UTF-8 text/);
  });

  it('stats holdout-size refuses a base outside [0, 1] with a clear message', () => {
    const result = runCli(['stats', 'holdout-size', '--effect', '0.05', '--base', '1.5']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/base must be .*between 0 and 1.*1\.5/);
    expect(runCli(['stats', 'holdout-size', '--effect', '0.05', '--base', '0.6', '--json']).code).toBe(0);
  });

  it('CLI errors that quote a flag or a command echo its control characters escaped', () => {
    const usage = runCli(['run', '--tasks', hostileTasks, '--agent', 'seeded', '--gpu', '\u001b[31mred\u009b0m']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('(got "\\x1b[31mred\\x9b0m")');
    const unknown = runCli(['\u001b]0;title\u0007']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command "\\x1b]0;title\\x07"');
    for (const text of [usage.stderr, unknown.stderr]) expect(text).not.toMatch(RAW_CONTROLS);
  });
});

