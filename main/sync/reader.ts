// A read-only connection of its own for a long scan of the rows (an upload, a push's plan): WAL gives it a steady
// snapshot, and an open cursor on the writer connection would block every write while it runs.
import { openOptionsOf, type Db } from '../db/connection';
import { sqliteDatabase } from '../db/sqlite';

/** Page cache of a reader: it scans the rows once in order, so a cached page is seldom read again (SQLite's default is 16 MiB). */
const READER_CACHE_KIB = 2048;

export function openReader(db: Db): Db {
  const nativeBinding = openOptionsOf(db).nativeBinding;
  const Sqlite = sqliteDatabase();
  const reader = new Sqlite(db.name, { readonly: true, fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) });
  reader.pragma(`cache_size = -${READER_CACHE_KIB}`);
  return reader;
}

/** Runs `read` on a reader of its own (an in-memory database: on itself), closed after. */
export function withReader<T>(db: Db, read: (reader: Db) => T): T {
  if (db.memory) return read(db);
  const reader = openReader(db);
  try {
    return read(reader);
  } finally {
    reader.close();
  }
}
