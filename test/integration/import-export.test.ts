import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../main/engine/engine';
import { importFile } from '../../main/cli/import-file';
import { sdkRow } from '../fixtures/sdk-rows';
import { buildEngine, runCli, tempDir, writeJsonl } from '../helpers/temp';

function readJsonl(file: string): Record<string, unknown>[] {
  return fs.readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
}

function tableCounts(dbFile: string): Record<string, number> {
  const db = new Database(dbFile, { readonly: true });
  try {
    const counts: Record<string, number> = {};
    for (const table of ['datasets', 'rows', 'labels', 'sync_outbox']) {
      counts[table] = (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
    }
    return counts;
  } finally {
    db.close();
  }
}

describe('import and export through the CLI', () => {
  beforeAll(() => buildEngine());

  it('round-trips SDK rows: every key and value comes back', () => {
    const dir = tempDir();
    const db = path.join(dir, 'desk.db');
    const rows = Array.from({ length: 50 }, (_, i) => sdkRow(i));
    const file = writeJsonl(path.join(dir, 'sdk.jsonl'), rows);
    const imported = runCli(['import', file, '--dataset', 'sdk', '--db', db, '--json']);
    expect(imported.code).toBe(0);
    const summary = JSON.parse(imported.stdout) as { dataset_id: string; rows_imported: number; rows_skipped: number; errors: unknown[] };
    expect(summary).toMatchObject({ rows_imported: 50, rows_skipped: 0, errors: [] });

    const out = path.join(dir, 'out.jsonl');
    expect(runCli(['export', summary.dataset_id, out, '--db', db]).code).toBe(0);
    expect(readJsonl(out)).toEqual(rows);

    const listed = JSON.parse(runCli(['datasets', '--json', '--db', db]).stdout) as Array<{ id: string; rows: number; name: string }>;
    expect(listed).toEqual([expect.objectContaining({ id: summary.dataset_id, rows: 50, name: 'sdk' })]);
  });

  it('refuses a file with a bad line, names the line, and leaves the database unchanged', () => {
    const dir = tempDir();
    const db = path.join(dir, 'desk.db');
    writeJsonl(path.join(dir, 'good.jsonl'), [sdkRow(0), sdkRow(1)]);
    expect(runCli(['import', path.join(dir, 'good.jsonl'), '--db', db]).code).toBe(0);
    const before = tableCounts(db);

    const bad = writeJsonl(path.join(dir, 'bad.jsonl'), [sdkRow(2), '{not json', sdkRow(3, { reward: true }), sdkRow(4)]);
    const refused = runCli(['import', bad, '--db', db, '--json']);
    expect(refused.code).not.toBe(0);
    const report = JSON.parse(refused.stdout) as { dataset_id: null; rows_imported: number; errors: Array<{ line: number; message: string }> };
    expect(report.dataset_id).toBeNull();
    expect(report.rows_imported).toBe(0);
    expect(report.errors.map((e) => e.line)).toEqual([2, 3]);
    expect(report.errors[1].message).toMatch(/boolean/);
    expect(tableCounts(db)).toEqual(before);

    const human = runCli(['import', bad, '--db', db]);
    expect(human.code).not.toBe(0);
    expect(human.stderr).toContain('bad.jsonl:2:');
  });

  it('with --skip-invalid imports the good lines and lists the bad ones', () => {
    const dir = tempDir();
    const db = path.join(dir, 'desk.db');
    const file = writeJsonl(path.join(dir, 'mixed.jsonl'), [sdkRow(0), '[1,2]', sdkRow(1), '', '{"foo": 1}', sdkRow(2)]);
    const result = runCli(['import', file, '--skip-invalid', '--db', db, '--json']);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { dataset_id: string; rows_imported: number; rows_skipped: number; errors: Array<{ line: number }> };
    expect(report).toMatchObject({ rows_imported: 3, rows_skipped: 2 });
    expect(report.errors.map((e) => e.line)).toEqual([2, 5]);
  });

  it('says what is wrong for a missing file or an unknown dataset', () => {
    const dir = tempDir();
    const db = path.join(dir, 'desk.db');
    const missing = runCli(['import', path.join(dir, 'nope.jsonl'), '--db', db]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no such file/);
    const unknown = runCli(['export', 'ds-nothere', path.join(dir, 'x.jsonl'), '--db', db]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no dataset or run with id "ds-nothere"/);
    expect(fs.existsSync(path.join(dir, 'x.jsonl'))).toBe(false);
  });

  it('honours WHILE_DESK_DB', () => {
    const dir = tempDir();
    const db = path.join(dir, 'env.db');
    const file = writeJsonl(path.join(dir, 'a.jsonl'), [sdkRow(0)]);
    expect(runCli(['import', file], { WHILE_DESK_DB: db }).code).toBe(0);
    expect(tableCounts(db).rows).toBe(1);
  });
});

describe('import through the engine API', () => {
  let engine: Engine | undefined;
  afterEach(async () => engine?.close());

  it('accepts chunks split anywhere, even inside a multi-byte character', async () => {
    engine = createEngine({ dbPath: path.join(tempDir(), 'desk.db') });
    const rows = Array.from({ length: 20 }, (_, i) => sdkRow(i));
    const text = rows.map((row) => JSON.stringify(row)).join('\r\n');
    const { import_id } = await engine.call('datasets.importBegin', { name: 'chunks' });
    for (let i = 0; i < text.length; i += 7) await engine.call('datasets.importChunk', { import_id, text: text.slice(i, i + 7) });
    const result = await engine.call('datasets.importEnd', { import_id });
    expect(result.rows_imported).toBe(20);
    const page = await engine.call('datasets.rows', { id: result.dataset_id!, sort: 'reward', descending: true, limit: 5 });
    expect(page.total).toBe(20);
    expect(page.rows.every((row) => row.reward === 1)).toBe(true);
    const one = await engine.call('datasets.row', { id: result.dataset_id!, ordinal: 3 });
    expect(one.row).toEqual(rows[3]);
  });

  it('streams a large file with bounded memory use per chunk', async () => {
    const dir = tempDir();
    engine = createEngine({ dbPath: path.join(dir, 'desk.db') });
    const file = path.join(dir, 'big.jsonl');
    const stream = fs.createWriteStream(file);
    for (let i = 0; i < 20_000; i++) stream.write(JSON.stringify(sdkRow(i)) + '\n');
    await new Promise((resolve) => stream.end(resolve));
    let progressEvents = 0;
    engine.on('import.progress', () => progressEvents++);
    const result = await importFile(engine, file, { name: 'big', skipInvalid: false });
    expect(result.rows_imported).toBe(20_000);
    expect(progressEvents).toBeGreaterThan(1);
    const byLength = await engine.call('datasets.rows', { id: result.dataset_id!, sort: 'reply_length', limit: 1 });
    expect(byLength.rows[0].reply_length).toBe('Order 1000 has shipped.'.length);
  });

  it('turns a bad input into a typed error, not a crash', async () => {
    engine = createEngine({ dbPath: path.join(tempDir(), 'desk.db') });
    await expect(engine.callRaw('datasets.rows', { id: 42 })).rejects.toMatchObject({ code: 'bad_input', message: expect.stringMatching(/id/) });
    await expect(engine.callRaw('datasets.nope', {})).rejects.toMatchObject({ code: 'unknown_method' });
    await expect(engine.callRaw('datasets.row', { id: 'ds-missing', ordinal: 0 })).rejects.toMatchObject({ code: 'not_found' });
    await expect(engine.callRaw('datasets.importChunk', { import_id: 'x', text: 'y' })).rejects.toMatchObject({ code: 'not_found' });
  });
});
