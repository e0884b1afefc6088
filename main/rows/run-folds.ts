// The folds a run keeps (shared/stats/kept-folds.ts), made as its rows land, so the compare screen's first report on
// a finished run reads its kept fold instead of parsing every row again. A fold must see the rows in ordinal order,
// as a reader does, and a run's rows land out of it (rollouts finish in any order, graded ones later): a row that
// lands ahead waits until every slot before it has landed. A run that stops with rows missing keeps nothing (a
// resume, or the first statistic on it, folds its rows); so does one past KEEP_AT_WRITE_MAX_ROWS rows or one whose
// rows run too far ahead of its first empty slot (either would hold more memory than the screen saves).
//
// Parsing each row again and folding it costs a seeded run (whose rollouts cost little) some 15% of its engine
// thread, so the fold runs in a thread of its own (run-fold-worker.ts), which the engine thread only hands the rows
// it stored; in-thread only where the worker is not built (tests from source).
import { Worker } from 'node:worker_threads';
import { foldsKeptAtWrite, type FoldKeptAtWrite } from '../../shared/stats/kept-folds';
import type { Db } from '../db/connection';
import { datasetVersion } from '../db/changes';
import { builtScriptIfPresent } from '../engine/package-root';
import type { StoredRow } from './columns';
import { keepFold, serializeFold } from './kept-folds';

/** Rows a run folds as they land: four times the 25,000 tasks x 4 the compare figure is set for. */
const KEEP_AT_WRITE_MAX_ROWS = 400_000;

/** Rows that may wait for an earlier slot; past this, the run keeps no fold. */
const MAX_WAITING_ROWS = 20_000;

/** A landed row: its slot and its stored JSON. */
export interface LandedRow {
  ordinal: number;
  json: string;
}

/** Each kept fold's key and its state encoded (fold-codec.ts). */
export type EncodedRunFolds = Array<{ key: string; bytes: Uint8Array }>;

/** The fold itself, in whatever thread holds it. */
export class RunFoldState {
  private readonly folds: FoldKeptAtWrite[] = foldsKeptAtWrite();
  private states: unknown[] | null = this.folds.map((fold) => fold.start());
  private readonly waiting = new Map<number, string>();
  private next: number;
  private added = 0;

  /** `firstOrdinal`: the run's first slot (a fresh run's rows are numbered from it with no gap). */
  constructor(firstOrdinal = 0) {
    this.next = firstOrdinal;
  }

  /** Rows that landed (in any order). */
  landed(rows: readonly LandedRow[]): void {
    if (this.states === null) return;
    for (const row of rows) this.waiting.set(row.ordinal, row.json);
    for (let json = this.waiting.get(this.next); json !== undefined; json = this.waiting.get(this.next)) {
      this.waiting.delete(this.next++);
      this.add(json);
    }
    if (this.waiting.size > MAX_WAITING_ROWS || this.added > KEEP_AT_WRITE_MAX_ROWS) this.giveUp();
  }

  /** The folds encoded, once every row landed; null when there is nothing to keep. */
  take(): EncodedRunFolds | null {
    const states = this.states;
    this.states = null;
    if (states === null || this.waiting.size > 0) return null;
    try {
      return this.folds.map((fold, i) => ({ key: fold.key, bytes: serializeFold(states[i]) }));
    } catch {
      return null;
    }
  }

  /** Nothing will be kept (a run that stopped): the memory goes now. */
  drop(): void {
    this.giveUp();
  }

  /** A row as a reader sees it: parsed from what is stored. */
  private add(json: string): void {
    this.added++;
    try {
      const row = JSON.parse(json) as unknown;
      this.folds.forEach((fold, i) => fold.add((this.states as unknown[])[i], row));
    } catch {
      this.giveUp();
    }
  }

  private giveUp(): void {
    this.states = null;
    this.waiting.clear();
  }
}

/** What the run engine holds: rows handed over as they are stored, and the folds kept once the run is done. */
export interface RunFolds {
  landed(rows: ReadonlyArray<Pick<StoredRow, 'ordinal' | 'json'>>): void;
  /** The finished run (every slot landed) keeps its folds, at the version its finish gave it. */
  keep(db: Db, runId: string): Promise<void>;
  /** Stops folding (a run that did not finish). */
  stop(): void;
}

const asText = (json: StoredRow['json']): string => (typeof json === 'string' ? json : Buffer.from(json.buffer, json.byteOffset, json.byteLength).toString('utf8'));

/** Stored rows as the fold takes them: each slot and its JSON as text. */
const landedRows = (rows: ReadonlyArray<Pick<StoredRow, 'ordinal' | 'json'>>): LandedRow[] => rows.map((row) => ({ ordinal: row.ordinal, json: asText(row.json) }));

/** Keeping is optional: a failure only costs a later fold. */
function keepAll(db: Db, runId: string, folds: EncodedRunFolds | null): void {
  if (!folds) return;
  try {
    const version = datasetVersion(db, runId);
    if (version !== undefined) for (const { key, bytes } of folds) keepFold(db, runId, key, version, bytes);
  } catch {
    // not kept: the first statistic on this run folds its rows
  }
}

/** Runs with fewer rows fold in the engine thread: a thread's start (some 50 ms) would cost more than their fold. */
const WORKER_MIN_ROWS = 5000;

/** How long a finished run waits for its fold thread's answer before it keeps nothing (it never waits on it else). */
const TAKE_TIMEOUT_MS = 10_000;

function inThread(): RunFolds {
  const state = new RunFoldState();
  return {
    landed: (rows) => state.landed(landedRows(rows)),
    keep: async (db, runId) => keepAll(db, runId, state.take()),
    stop: () => state.drop(),
  };
}

/** A fresh run's folds: in a thread of their own for a large run when the worker is built, else in this one. */
export function startRunFolds(expectedRows: number): RunFolds {
  const script = expectedRows >= WORKER_MIN_ROWS ? builtScriptIfPresent('run-fold-worker.cjs') : null;
  if (!script) return inThread();
  let worker: Worker;
  try {
    worker = new Worker(script);
  } catch {
    return inThread();
  }
  worker.unref();
  let failed = false;
  worker.on('error', () => (failed = true)); // a fold that failed is not kept; the run goes on
  return {
    landed(rows) {
      if (!failed) worker.postMessage({ type: 'landed', rows: landedRows(rows) });
    },
    async keep(db, runId) {
      try {
        if (failed) return;
        worker.ref();
        let timer: NodeJS.Timeout | undefined;
        const folds = await new Promise<EncodedRunFolds | null>((resolve) => {
          worker.once('message', (reply: { folds: EncodedRunFolds | null }) => resolve(reply.folds));
          worker.once('exit', () => resolve(null));
          timer = setTimeout(() => resolve(null), TAKE_TIMEOUT_MS);
          worker.postMessage({ type: 'take' });
        });
        clearTimeout(timer);
        keepAll(db, runId, folds);
      } finally {
        void worker.terminate();
      }
    },
    stop: () => void worker.terminate(),
  };
}
