// The engine host's one writer connection: WAL, foreign keys, migrations applied on open.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { migrate } from './migrate';

export type Db = Database.Database;

/** Where the database lives when neither `--db` nor WHILE_DESK_DB says: the OS's app-data folder. */
export function defaultDbPath(): string {
  const home = os.homedir();
  const base =
    process.platform === 'darwin'
      ? path.join(home, 'Library', 'Application Support')
      : process.platform === 'win32'
        ? process.env.APPDATA ?? path.join(home, 'AppData', 'Roaming')
        : process.env.XDG_DATA_HOME ?? path.join(home, '.local', 'share');
  return path.join(base, 'while-desk', 'while-desk.db');
}

export function resolveDbPath(explicit?: string): string {
  return explicit ?? (process.env.WHILE_DESK_DB || defaultDbPath());
}

export interface OpenOptions {
  /** Path to a better-sqlite3 binary built for another ABI (Electron's utilityProcess). */
  nativeBinding?: string;
}

export function openDatabase(file: string, options: OpenOptions = {}): Db {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const db = new Database(file, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  // 16 KiB pages halve the cost of bulk row inserts (rows are ~0.5 KiB of JSON each); applies to new files only.
  db.pragma('page_size = 16384');
  db.pragma('journal_mode = WAL');
  // Checkpoint every 2000 pages (32 MiB) rather than every 1000 small ones: fewer fsyncs during imports and runs.
  db.pragma('wal_autocheckpoint = 2000');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // 16 MiB of page cache: rows have one index, whose hot pages fit easily; memory stays low on big imports.
  db.pragma('cache_size = -16384');
  migrate(db);
  return db;
}
