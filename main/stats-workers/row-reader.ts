// Inside a stats worker: rows read straight from the SQLite file on a read-only connection, with a small cache.
import Database from 'better-sqlite3';
import { StatsValueError } from '../../shared/stats/errors';
import type { RowSource } from './protocol';

/** A dataset that is not there: the pool turns it into a `not_found` API error. */
export class MissingDatasetError extends Error {}

interface Cached {
  stamp: string;
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
    const found = db.prepare('SELECT COUNT(*) AS n, MAX(ordinal) AS last FROM rows WHERE dataset_id = ?').get(id) as { n: number; last: number | null };
    if (found.n === 0 && !db.prepare('SELECT 1 FROM datasets WHERE id = ?').get(id)) {
      throw new MissingDatasetError(`no dataset or run with id "${id}" (see \`while-desk datasets\`)`);
    }
    // data_version moves whenever another connection commits: any write anywhere drops the cache.
    const stamp = `${db.pragma('data_version', { simple: true })}:${found.n}:${found.last}`;
    const cached = this.cache.get(id);
    if (cached && cached.stamp === stamp) {
      this.cache.delete(id);
      this.cache.set(id, cached);
      return cached.rows;
    }
    const statement = db.prepare('SELECT row_json FROM rows WHERE dataset_id = ? ORDER BY ordinal').pluck();
    const rows = (statement.all(id) as string[]).map((json) => JSON.parse(json) as unknown);
    this.cache.set(id, { stamp, rows });
    let total = 0;
    for (const entry of this.cache.values()) total += entry.rows.length;
    for (const [key, entry] of this.cache) {
      if (total <= MAX_CACHED_ROWS || key === id) break;
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
