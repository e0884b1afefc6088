// Applies migrations in order; each applied migration's checksum is recorded and checked on every open.
import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import { rowKey } from '../../shared/stats/keys';
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
  const pending: Migration[] = [];
  for (const migration of [...migrations].sort((a, b) => a.id - b.id)) {
    const sum = checksum(migration);
    const done = applied.get(migration.id);
    if (!done) {
      pending.push(migration);
      continue;
    }
    if (done.checksum !== sum) {
      throw new MigrationChecksumError(
        `migration ${migration.name} was edited after it was applied to this database (checksum ${done.checksum.slice(0, 12)} recorded, ${sum.slice(0, 12)} now); add a new migration instead`,
      );
    }
  }
  if (pending.length === 0) return;
  // SQL functions migrations may call (0004 fills rows.row_key with the row key of shared/stats/keys.ts).
  db.function('while_row_key', { deterministic: true }, (json: unknown) => rowKey(JSON.parse(String(json)) as Record<string, unknown>));
  // A table rebuild (create, copy, drop, rename) must not fire foreign key actions: dropping a table with
  // foreign keys on deletes its rows first, and ON DELETE CASCADE would take the referencing rows with them.
  // The pragma only takes effect outside a transaction; each migration then checks every key before it commits.
  const foreignKeys = db.pragma('foreign_keys', { simple: true }) as number;
  db.pragma('foreign_keys = OFF');
  try {
    for (const migration of pending) {
      db.transaction(() => {
        db.exec(migration.sql);
        const broken = db.pragma('foreign_key_check') as Array<{ table: string; rowid: number; parent: string }>;
        if (broken.length > 0) {
          const first = broken[0];
          throw new Error(`migration ${migration.name} would leave ${broken.length} broken reference(s), e.g. ${first.table} row ${first.rowid} -> ${first.parent}; nothing was changed`);
        }
        record.run(migration.id, migration.name, checksum(migration), new Date().toISOString());
      })();
    }
  } finally {
    db.pragma(`foreign_keys = ${foreignKeys ? 'ON' : 'OFF'}`);
  }
}
