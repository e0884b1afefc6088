import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, MigrationChecksumError } from '../../main/db/migrate';
import { migrations } from '../../main/db/migrations/index';

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
