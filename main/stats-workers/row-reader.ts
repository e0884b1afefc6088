// Inside a stats worker: rows read straight from the SQLite file on a read-only connection, through the rows
// module (so they carry the gold their labels give them), with a small cache keyed on each dataset's version.
import Database from 'better-sqlite3';
import { datasetVersion } from '../db/changes';
import { readLabeledRows } from '../rows/labeled-rows';
import { readDatasetRows } from '../rows/read';
import { StatsValueError } from '../../shared/stats/errors';
import type { RowSource } from './protocol';

/** A dataset that is not there: the pool turns it into a `not_found` API error. */
export class MissingDatasetError extends Error {}

interface Cached {
  version: number;
  rows: unknown[];
}

/** Parsed rows kept per worker (about 1 KB each in memory); the newest dataset is always kept. */
const MAX_CACHED_ROWS = 250_000;

export class RowReader {
  private db: Database.Database | null = null;
  private readonly cache = new Map<string, Cached>();

  constructor(private readonly dbPath: string | null) {}

  private connection(): Database.Database {
    if (!this.dbPath) throw new StatsValueError('no database to read datasets from: pass the rows instead');
    if (!this.db) {
      // In the app the engine host runs under Electron, whose better-sqlite3 binary it names in this variable.
      const nativeBinding = process.env.WHILE_DESK_SQLITE_BINDING || undefined;
      this.db = new Database(this.dbPath, { readonly: true, fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) });
      this.db.pragma('busy_timeout = 5000');
    }
    return this.db;
  }

  resolve(source: RowSource): unknown[] {
    if ('rows' in source) return source.rows;
    const db = this.connection();
    const id = source.dataset_id;
    const version = datasetVersion(db, id);
    if (version === undefined) throw new MissingDatasetError(`no dataset or run with id "${id}" (see \`while-desk datasets\`)`);
    // The version moves with every write to the dataset (rows, labels, status): nothing else drops the cache.
    const cacheKey = source.labeled_only ? `${id}\u0000labeled` : id;
    const cached = this.cache.get(cacheKey);
    if (cached && cached.version === version) {
      this.cache.delete(cacheKey);
      this.cache.set(cacheKey, cached);
      return cached.rows;
    }
    const rows: unknown[] = source.labeled_only ? readLabeledRows(db, id) : readDatasetRows(db, id);
    this.cache.set(cacheKey, { version, rows });
    let total = 0;
    for (const entry of this.cache.values()) total += entry.rows.length;
    for (const [key, entry] of this.cache) {
      if (total <= MAX_CACHED_ROWS || key === cacheKey) break;
      this.cache.delete(key);
      total -= entry.rows.length;
    }
    return rows;
  }

  close(): void {
    this.db?.close();
    this.db = null;
    this.cache.clear();
  }
}
