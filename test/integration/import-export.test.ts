import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../main/engine/engine';
import { importFile } from '../../main/cli/import-file';
import { warmUpImport } from '../../main/datasets/block-parser';
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

  it('over many blocks: UTF-8 rows come back byte for byte, a line that is not UTF-8 is named by its number', () => {
    const dir = tempDir();
    const db = path.join(dir, 'desk.db');
    // About 3 MiB: several 1 MiB blocks, read and parsed by the workers; the bad line lies in a later block.
    const rows = Array.from({ length: 4000 }, (_, i) => sdkRow(i, { prompt: `Caf\u00e9 ${i} \u2713 \u65e5\u672c \u{1f600}`, pad: 'x'.repeat(300) }));
    const lines = rows.map((row) => Buffer.from(JSON.stringify(row) + '\n'));
    const badLine = 3001;
    const file = path.join(dir, 'utf8.jsonl');
    fs.writeFileSync(file, Buffer.concat([...lines.slice(0, badLine - 1), Buffer.from('{"prompt": "\xff\xfe"}\n', 'latin1'), ...lines.slice(badLine - 1)]));
    expect(fs.statSync(file).size).toBeGreaterThan(3 << 20);

    const refused = runCli(['import', file, '--db', db, '--json']);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toMatchObject({ dataset_id: null, rows_imported: 0, errors: [{ line: badLine, message: 'not valid UTF-8 text' }] });
    expect(tableCounts(db).rows).toBe(0);

    const imported = JSON.parse(runCli(['import', file, '--skip-invalid', '--db', db, '--json']).stdout) as { dataset_id: string; rows_imported: number };
    expect(imported.rows_imported).toBe(rows.length);
    const out = path.join(dir, 'out.jsonl');
    expect(runCli(['export', imported.dataset_id, out, '--db', db]).code).toBe(0);
    expect(readJsonl(out)).toEqual(rows);
    // The CLI checkpointed everything before it exited (the checkpoint worker included) and the file is sound.
    expect(fs.existsSync(`${db}-wal`)).toBe(false);
    const check = new Database(db, { readonly: true });
    expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
    check.close();
  });

  it('with several parse workers, blocks still land in file order with exact line numbers', () => {
    const dir = tempDir();
    const db = path.join(dir, 'desk.db');
    const rows = Array.from({ length: 6000 }, (_, i) => sdkRow(i, { pad: 'y'.repeat(200 + (i % 7) * 50) }));
    const lines: string[] = rows.map((row) => JSON.stringify(row));
    lines.splice(4500, 0, '{"broken": ');
    lines.splice(1200, 0, '[1, 2, 3]');
    const file = path.join(dir, 'many-blocks.jsonl');
    fs.writeFileSync(file, lines.join('\n') + '\n');
    expect(fs.statSync(file).size).toBeGreaterThan(5 << 20);
    const result = runCli(['import', file, '--skip-invalid', '--db', db, '--json'], { WHILE_DESK_IMPORT_WORKERS: '3' });
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { dataset_id: string; rows_imported: number; errors: Array<{ line: number }> };
    expect(report.rows_imported).toBe(rows.length);
    expect(report.errors.map((error) => error.line)).toEqual([1201, 4502]);
    const out = path.join(dir, 'out.jsonl');
    expect(runCli(['export', report.dataset_id, out, '--db', db]).code).toBe(0);
    expect(readJsonl(out)).toEqual(rows);
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

  it('checkpoints on a worker while a file imports, keeps the WAL bounded, and gives the usual settings back after', async () => {
    buildEngine(); // the import and checkpoint workers run from the built bundle
    const dir = tempDir();
    const dbPath = path.join(dir, 'desk.db');
    engine = createEngine({ dbPath });
    const file = path.join(dir, 'wal.jsonl');
    const stream = fs.createWriteStream(file);
    for (let i = 0; i < 90_000; i++) stream.write(JSON.stringify(sdkRow(i)) + '\n');
    await new Promise((resolve) => stream.end(resolve));
    expect(fs.statSync(file).size).toBeGreaterThan(80 << 20);
    const writerCheckpointPages: number[] = [];
    const pageCacheKib: number[] = [];
    let largestWal = 0;
    engine.on('import.progress', () => {
      writerCheckpointPages.push(engine!.ctx.db.pragma('wal_autocheckpoint', { simple: true }) as number);
      pageCacheKib.push(engine!.ctx.db.pragma('cache_size', { simple: true }) as number);
      if (fs.existsSync(`${dbPath}-wal`)) largestWal = Math.max(largestWal, fs.statSync(`${dbPath}-wal`).size);
    });
    const result = await importFile(engine, file, { name: 'wal', skipInvalid: false });
    expect(result.rows_imported).toBe(90_000);
    // The WAL starts over rather than growing with the whole file.
    expect(largestWal).toBeGreaterThan(0);
    expect(largestWal).toBeLessThan(fs.statSync(file).size);
    // During the import the writer checkpoints only past 64 MiB, with a small page cache; afterwards as usual.
    expect(new Set(writerCheckpointPages)).toEqual(new Set([1024]));
    expect(new Set(pageCacheKib)).toEqual(new Set([-2048]));
    expect(engine.ctx.db.pragma('wal_autocheckpoint', { simple: true })).toBe(512);
    expect(engine.ctx.db.pragma('cache_size', { simple: true })).toBe(-16384);
    expect(engine.ctx.db.pragma('integrity_check', { simple: true })).toBe('ok');
  });

  it('a read-ahead started before the engine opened is used only by an import of that same file', async () => {
    buildEngine();
    const dir = tempDir();
    engine = createEngine({ dbPath: path.join(dir, 'desk.db') });
    const fileA = writeJsonl(path.join(dir, 'a.jsonl'), Array.from({ length: 30 }, (_, i) => sdkRow(i, { prompt: `A${i}` })));
    const fileB = writeJsonl(path.join(dir, 'b.jsonl'), Array.from({ length: 20 }, (_, i) => sdkRow(i, { prompt: `B${i}` })));
    const prompts = async (datasetId: string) => {
      const page = await engine!.call('datasets.rows', { id: datasetId, limit: 100 });
      return page.rows.map((row) => row.prompt_head);
    };
    warmUpImport(fileA);
    const other = await importFile(engine, fileB, { name: 'b', skipInvalid: false });
    expect(await prompts(other.dataset_id!)).toEqual(Array.from({ length: 20 }, (_, i) => `B${i}`));
    warmUpImport(fileB);
    const same = await importFile(engine, fileB, { name: 'b again', skipInvalid: false });
    expect(await prompts(same.dataset_id!)).toEqual(Array.from({ length: 20 }, (_, i) => `B${i}`));
  });

  it('turns a bad input into a typed error, not a crash', async () => {
    engine = createEngine({ dbPath: path.join(tempDir(), 'desk.db') });
    await expect(engine.callRaw('datasets.rows', { id: 42 })).rejects.toMatchObject({ code: 'bad_input', message: expect.stringMatching(/id/) });
    await expect(engine.callRaw('datasets.nope', {})).rejects.toMatchObject({ code: 'unknown_method' });
    await expect(engine.callRaw('datasets.row', { id: 'ds-missing', ordinal: 0 })).rejects.toMatchObject({ code: 'not_found' });
    await expect(engine.callRaw('datasets.importChunk', { import_id: 'x', text: 'y' })).rejects.toMatchObject({ code: 'not_found' });
  });
});
