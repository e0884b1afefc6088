// Inside a stats worker: rows read straight from the SQLite file on a read-only connection, through the rows
// module (so they carry the gold their labels give them), with a small cache keyed on each dataset's version. A
// statistic's fold of a whole dataset is read from the folds the dataset keeps (rows/kept-folds.ts) when one of
// its current version is there, and handed back to be kept when it was folded here.
import type Database from 'better-sqlite3';
import { sqliteDatabase } from '../db/sqlite';
import { datasetVersion } from '../db/changes';
import { readLabeledRows } from '../rows/labeled-rows';
import { keptFold } from '../rows/kept-folds';
import { forEachParsedRow, cutOrdinal, readDatasetRows, type OrdinalRange } from '../rows/read';
import { projectRows, projectionOf } from '../rows/row-projection';
import { StatsValueError } from '../../shared/stats/errors';
import type { BoundFold } from '../../shared/stats/registry/define';
import { shareHere, type FoldPlacement } from './placement';
import type { RowSource } from './protocol';

/** A dataset that is not there: the pool turns it into a `not_found` API error. */
export class MissingDatasetError extends Error {}

interface Cached {
  version: number;
  rows: unknown[];
  /** The fields the rows hold ('row': whole rows). */
  reads: readonly string[] | 'row';
}

/** Rows that hold `held` hold everything `wanted` reads (a statistic reads extra fields as whole rows carry them). */
function covers(held: readonly string[] | 'row', wanted: readonly string[] | 'row'): boolean {
  if (held === 'row') return true;
  return wanted !== 'row' && wanted.every((field) => held.includes(field));
}

/** A part of a dataset folded elsewhere (another thread), with the dataset version it read. */
export type FoldOtherPart = (range: OrdinalRange) => Promise<{ state: unknown; version: number }>;

/** A whole dataset's fold made here, for the engine to keep (it writes; this reader is read-only). */
export interface FoldToKeep {
  datasetId: string;
  key: string;
  version: number;
  state: unknown;
}

/** Datasets with fewer rows are folded in one thread: a second thread's start would cost more than it saves. */
export const SPLIT_MIN_ROWS = 20_000;

/** How much of the database file a reader maps (a bound on address space, not memory: pages stay the OS's). */
const READ_MMAP_BYTES = 1 << 30;

/** Parsed rows kept per worker (about 1 KB each in memory); the newest dataset is always kept. */
const MAX_CACHED_ROWS = 250_000;

function foldRows<State>(fold: BoundFold<State>, rows: readonly unknown[]): State {
  const state = fold.start();
  for (const row of rows) fold.add(state, row);
  return state;
}

export class RowReader {
  private db: Database.Database | null = null;
  private readonly cache = new Map<string, Cached>();

  /** `onFolded`: each whole dataset's fold this reader made for a fold that is kept (BoundFold.keepKey). */
  constructor(
    private readonly dbPath: string | null,
    private readonly onFolded: (fold: FoldToKeep) => void = () => {},
  ) {}

  private connection(): Database.Database {
    if (!this.dbPath) throw new StatsValueError('no database to read datasets from: pass the rows instead');
    if (!this.db) {
      // In the app the engine host runs under Electron, whose better-sqlite3 binary it names in this variable.
      const nativeBinding = process.env.WHILE_DESK_SQLITE_BINDING || undefined;
      const Sqlite = sqliteDatabase();
      this.db = new Sqlite(this.dbPath, { readonly: true, fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) });
      this.db.pragma('busy_timeout = 5000');
      // Whole-dataset scans read the file through a memory map: a third less time in SQLite than copying each page
      // out. SQLite keeps mapped reads consistent with the engine's writes (its own locks and the WAL).
      this.db.pragma(`mmap_size = ${READ_MMAP_BYTES}`);
    }
    return this.db;
  }

  /**
   * A dataset folded by a statistic's fold, page by page with no row kept (rows this worker already holds are
   * folded from memory). With `otherPart`, its second half is folded by another thread at the same time; both
   * halves are read in a transaction each and merged only when both saw the same dataset version. `placement`
   * 'here' folds it all in this thread, 'elsewhere' most of it in the other (a job's second dataset). A fold that
   * is kept is read from the dataset's kept folds when one of its version is there, and else handed to onFolded.
   */
  async fold<State>(datasetId: string, fold: BoundFold<State>, otherPart?: FoldOtherPart, placement: FoldPlacement = 'split'): Promise<State> {
    const db = this.connection();
    const version = datasetVersion(db, datasetId);
    if (version === undefined) throw new MissingDatasetError(`no dataset or run with id "${datasetId}" (see \`while-desk datasets\`)`);
    const key = fold.keepKey;
    if (key !== null) {
      const kept = keptFold(db, datasetId, key, version);
      if (kept !== undefined) return kept as State;
    }
    const made = await this.foldAll(datasetId, version, fold, otherPart, placement);
    if (key !== null) this.onFolded({ datasetId, key, version: made.version, state: made.state });
    return made.state;
  }

  private async foldAll<State>(datasetId: string, version: number, fold: BoundFold<State>, otherPart: FoldOtherPart | undefined, placement: FoldPlacement): Promise<{ state: State; version: number }> {
    const cached = this.cache.get(datasetId);
    if (cached && cached.version === version && covers(cached.reads, fold.reads)) return { state: foldRows(fold, cached.rows), version };
    if (placement === 'here') return this.foldPart(datasetId, fold);
    const cut = otherPart ? cutOrdinal(this.connection(), datasetId, SPLIT_MIN_ROWS, shareHere(placement)) : null;
    if (cut === null || !otherPart) return this.foldPart(datasetId, fold);
    const second = otherPart({ from: cut, to: Number.MAX_SAFE_INTEGER });
    second.catch(() => undefined); // awaited below
    const first = this.foldPart(datasetId, fold, { from: Number.MIN_SAFE_INTEGER, to: cut });
    const other = await second;
    // A write between the two reads: the halves are of different versions, so read it all again here.
    if (other.version !== first.version) return this.foldPart(datasetId, fold);
    return { state: fold.merge(first.state, other.state as State), version: first.version };
  }

  /** The rows of `range` (all when absent) folded in one read transaction, and the dataset version that read saw. */
  foldPart<State>(datasetId: string, fold: BoundFold<State>, range?: OrdinalRange): { state: State; version: number } {
    const db = this.connection();
    return db.transaction(() => {
      const version = datasetVersion(db, datasetId);
      if (version === undefined) throw new MissingDatasetError(`no dataset or run with id "${datasetId}" (see \`while-desk datasets\`)`);
      const state = fold.start();
      forEachParsedRow(db, datasetId, (row) => fold.add(state, row), range, projectionOf(fold.reads, fold.rarely));
      return { state, version };
    })();
  }

  /** The source's rows, holding only the fields `reads` names (whole rows for 'row'). */
  resolve(source: RowSource, reads: readonly string[] | 'row' = 'row'): unknown[] {
    if ('rows' in source) return projectRows(source.rows, reads);
    const db = this.connection();
    const id = source.dataset_id;
    const version = datasetVersion(db, id);
    if (version === undefined) throw new MissingDatasetError(`no dataset or run with id "${id}" (see \`while-desk datasets\`)`);
    // The version moves with every write to the dataset (rows, labels, status): nothing else drops the cache. Rows
    // read whole (or for other fields) serve a statistic whose fields they hold.
    const cacheKey = source.labeled_only ? `${id}\u0000labeled` : id;
    const cached = this.cache.get(cacheKey);
    if (cached && cached.version === version && covers(cached.reads, reads)) {
      this.cache.delete(cacheKey);
      this.cache.set(cacheKey, cached);
      return cached.rows;
    }
    const rows: unknown[] = source.labeled_only ? projectRows(readLabeledRows(db, id), reads) : readDatasetRows(db, id, projectionOf(reads));
    this.cache.delete(cacheKey);
    this.cache.set(cacheKey, { version, rows, reads });
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
