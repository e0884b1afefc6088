import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, MigrationChecksumError } from '../../main/db/migrate';
import { migrations } from '../../main/db/migrations/index';
import { rowKey } from '../../shared/stats/keys';

describe('migrations', () => {
  it('apply in order once, and are recorded', () => {
    const db = new Database(':memory:');
    migrate(db);
    migrate(db);
    const applied = db.prepare('SELECT id FROM schema_migrations ORDER BY id').pluck().all();
    expect(applied).toEqual(migrations.map((m) => m.id).sort((a, b) => a - b));
  });

  it('fail loudly when an applied migration was edited', () => {
    const db = new Database(':memory:');
    const first = [{ id: 1, name: '0001-test', sql: 'CREATE TABLE t (a INTEGER);' }];
    migrate(db, first);
    expect(() => migrate(db, [{ ...first[0], sql: 'CREATE TABLE t (a TEXT);' }])).toThrow(MigrationChecksumError);
  });

  it('roll back a migration that fails halfway', () => {
    const db = new Database(':memory:');
    const broken = [{ id: 1, name: '0001-broken', sql: 'CREATE TABLE ok (a INTEGER); CREATE TABLE ok (a INTEGER);' }];
    expect(() => migrate(db, broken)).toThrow();
    expect(db.prepare("SELECT COUNT(*) FROM sqlite_master WHERE name = 'ok'").pluck().get()).toBe(0);
  });
});

describe('migration 0004 (labels and versions) on a database made by the earlier migrations', () => {
  it('keeps every dataset, run, row and label, fills row keys and counts, drops the kind CHECK, and fires no cascade', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, migrations.filter((m) => m.id <= 3));
    const now = new Date().toISOString();
    const addDataset = db.prepare('INSERT INTO datasets (id, name, kind, status, parent_id, source, created_at) VALUES (?, ?, ?, ?, ?, NULL, ?)');
    addDataset.run('ds-a', 'imported', 'import', 'ready', null, now);
    addDataset.run('run-b', 'a run', 'run', 'done', null, now);
    addDataset.run('ds-c', 'graded copy', 'graded', 'ready', 'ds-a', now);
    db.prepare(`INSERT INTO runs (id, config_json, tasks_json, status, expected_rows, created_at, updated_at) VALUES ('run-b', '{}', '[]', 'done', 2, ?, ?)`).run(now, now);
    const addRow = db.prepare('INSERT INTO rows (dataset_id, ordinal, scenario_id, rollout_index, reward, row_json) VALUES (?, ?, ?, ?, ?, ?)');
    addRow.run('ds-a', 0, 't1', 0, 1, JSON.stringify({ prompt: 'p', final_text: 'f', scenario_id: 't1', rollout_index: 0 }));
    addRow.run('ds-a', 1, null, null, null, JSON.stringify({ prompt: 'p2', final_text: 'f2', rollout_id: 'r-7' }));
    addRow.run('run-b', 0, null, null, null, JSON.stringify({ prompt: 'only a prompt', final_text: 'and a reply' }));
    addRow.run('ds-c', 0, 't1', 0, 0, JSON.stringify({ prompt: 'p', final_text: 'f', scenario_id: 't1', rollout_index: 0 }));
    db.prepare(`INSERT INTO labels (dataset_id, row_key, annotator, kind, value, created_at) VALUES ('ds-a', 't1#0', 'ann', 'human', '1', ?)`).run(now);

    migrate(db);

    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    const datasets = db.prepare('SELECT id, kind, parent_id, row_count, version FROM datasets ORDER BY id').all();
    expect(datasets).toEqual([
      { id: 'ds-a', kind: 'import', parent_id: null, row_count: 2, version: 1 },
      { id: 'ds-c', kind: 'graded', parent_id: 'ds-a', row_count: 1, version: 1 },
      { id: 'run-b', kind: 'run', parent_id: null, row_count: 1, version: 1 },
    ]);
    // Dropping the old datasets table cascaded to nothing: the run is still there.
    expect(db.prepare('SELECT id, status FROM runs').all()).toEqual([{ id: 'run-b', status: 'done' }]);
    expect(db.prepare('SELECT COUNT(*) FROM labels').pluck().get()).toBe(1);
    const keys = db.prepare('SELECT dataset_id, ordinal, row_key FROM rows ORDER BY dataset_id, ordinal').all() as Array<{ row_key: string }>;
    expect(keys.map((row) => row.row_key)).toEqual(['t1#0', 'r-7', 't1#0', rowKey({ prompt: 'only a prompt', final_text: 'and a reply' })]);
    expect(db.prepare("SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND name = 'rows_by_key'").pluck().get()).toBe(1);
    // Any kind is accepted now, and references still hold.
    addDataset.run('ds-new', 'a sweep', 'sweep', 'ready', 'ds-a', now);
    expect(() => addDataset.run('ds-bad', 'orphan', 'graded', 'ready', 'no-such-parent', now)).toThrow(/FOREIGN KEY/);
    expect(() => db.prepare("DELETE FROM datasets WHERE id = 'ds-a'").run()).toThrow(/FOREIGN KEY/);
  });

  it('refuses a migration that would leave a broken reference, and changes nothing', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    const setup = [{ id: 1, name: '0001-t', sql: 'CREATE TABLE p (id TEXT PRIMARY KEY); CREATE TABLE c (p_id TEXT REFERENCES p(id)); INSERT INTO p VALUES (\'a\'); INSERT INTO c VALUES (\'a\');' }];
    migrate(db, setup);
    expect(() => migrate(db, [...setup, { id: 2, name: '0002-break', sql: "DELETE FROM p WHERE id = 'a';" }])).toThrow(/broken reference/);
    expect(db.prepare('SELECT COUNT(*) FROM p').pluck().get()).toBe(1);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
  });
});

describe('migration 0010 (run tasks) on a database made by the earlier migrations', () => {
  it("moves each run's task set into run_tasks, drops it from the runs row, and a run reads it back from there", async () => {
    const { getRun, listRuns } = await import('../../main/db/repos/runs');
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, migrations.filter((m) => m.id <= 9));
    const now = new Date().toISOString();
    const tasks = [{ scenario_id: 't1', prompt: 'p' }, { scenario_id: 't2', prompt: 'q' }];
    db.prepare("INSERT INTO datasets (id, name, kind, status, parent_id, source, created_at) VALUES ('run-a', 'a run', 'run', 'ready', NULL, NULL, ?)").run(now);
    const config = { tasks_path: '/t.jsonl', tasks_sha256: 'ab', tasks_count: 2, agent: { kind: 'seeded', misbehave_rate: 0.3, seed: null }, judge: null, k: 1, runs: 1, seed: 1, max_turns: 8, concurrency: 8, system_prompt: null, agent_name: null, version: null };
    db.prepare("INSERT INTO runs (id, config_json, tasks_json, status, expected_rows, created_at, updated_at) VALUES ('run-a', ?, ?, 'done', 2, ?, ?)").run(JSON.stringify(config), JSON.stringify(tasks), now, now);

    migrate(db);

    expect(db.pragma('foreign_key_check')).toEqual([]);
    const columns = (db.prepare('PRAGMA table_info(runs)').all() as Array<{ name: string }>).map((c) => c.name);
    expect(columns).not.toContain('tasks_json');
    expect(db.prepare('SELECT run_id, tasks_json FROM run_tasks').all()).toEqual([{ run_id: 'run-a', tasks_json: JSON.stringify(tasks) }]);
    expect(listRuns(db).map((run) => [run.id, run.status, run.expectedRows])).toEqual([['run-a', 'done', 2]]);
    expect(getRun(db, 'run-a')?.tasks).toEqual(tasks);
    db.prepare("DELETE FROM datasets WHERE id = 'run-a'").run(); // the run and its task set go with their dataset
    expect(db.prepare('SELECT COUNT(*) FROM run_tasks').pluck().get()).toBe(0);
  });
});
