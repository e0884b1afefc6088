// Applies migrations in order; each applied migration's checksum is recorded and checked on every open.
import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import { migrations as allMigrations, type Migration } from './migrations/index';

export class MigrationChecksumError extends Error {}

function checksum(migration: Migration): string {
  return createHash('sha256').update(migration.sql).digest('hex');
}

export function migrate(db: Database.Database, migrations: Migration[] = allMigrations): void {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, checksum TEXT NOT NULL, applied_at TEXT NOT NULL)`);
  const applied = new Map(
    (db.prepare('SELECT id, name, checksum FROM schema_migrations').all() as Array<{ id: number; name: string; checksum: string }>).map(
      (row) => [row.id, row],
    ),
  );
  const record = db.prepare('INSERT INTO schema_migrations (id, name, checksum, applied_at) VALUES (?, ?, ?, ?)');
  for (const migration of [...migrations].sort((a, b) => a.id - b.id)) {
    const sum = checksum(migration);
    const done = applied.get(migration.id);
    if (done) {
      if (done.checksum !== sum) {
        throw new MigrationChecksumError(
          `migration ${migration.name} was edited after it was applied to this database (checksum ${done.checksum.slice(0, 12)} recorded, ${sum.slice(0, 12)} now); add a new migration instead`,
        );
      }
      continue;
    }
    db.transaction(() => {
      db.exec(migration.sql);
      record.run(migration.id, migration.name, sum, new Date().toISOString());
    })();
  }
}
