// While a bulk write runs (a file import), the writer's connection is set for appending:
// - WAL checkpoints move off the engine thread to a checkpoint worker (checkpoint-worker.ts) instead of
//   stalling the writer every 32 MiB;
// - the page cache shrinks to 2 MiB: appending touches few pages, and a large cache only costs fresh memory
//   (some 3,500 page faults, 5% of an import's CPU time, on 100k rows).
// Holds are counted: the usual settings come back when the last bulk write ends. Without the built worker
// (tests from source), or on an in-memory database, nothing changes.
import { Worker } from 'node:worker_threads';
import { builtScriptIfPresent } from '../engine/package-root';
import { openOptionsOf, PAGE_CACHE_KIB, WAL_AUTOCHECKPOINT_PAGES, type Db } from './connection';

const CHECKPOINT_INTERVAL_MS = 25;
/**
 * The writer still checkpoints once the WAL passes this many pages (64 MiB): the worker rarely catches up
 * exactly when the writer begins, and only then can the WAL start over, so without this it would grow with
 * the whole import. By then the worker has copied nearly everything, so the writer's share is small.
 */
const WRITER_CHECKPOINT_PAGES = 1024;
const BULK_PAGE_CACHE_KIB = 2048;

const active = new Map<Db, { holds: number; stop: Int32Array; exited: Promise<void> }>();

/** Starts (or joins) a bulk write on `db`; call the returned function when it is over. */
export function holdBulkWrite(db: Db): () => Promise<void> {
  let entry = active.get(db);
  if (!entry) {
    const script = builtScriptIfPresent('checkpoint-worker.cjs');
    if (!script || db.memory) return async () => {};
    const stop = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(script, { workerData: { file: db.name, nativeBinding: openOptionsOf(db).nativeBinding, intervalMs: CHECKPOINT_INTERVAL_MS, stop } });
    worker.unref();
    const exited = new Promise<void>((resolve) => {
      worker.once('exit', () => resolve());
      worker.once('error', () => resolve()); // a failed checkpointer only means the writer checkpoints again
    });
    db.pragma(`wal_autocheckpoint = ${WRITER_CHECKPOINT_PAGES}`);
    db.pragma(`cache_size = -${BULK_PAGE_CACHE_KIB}`);
    entry = { holds: 0, stop, exited };
    active.set(db, entry);
  }
  entry.holds++;
  const held = entry;
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    if (--held.holds > 0) return;
    active.delete(db);
    Atomics.store(held.stop, 0, 1);
    Atomics.notify(held.stop, 0);
    await held.exited;
    if (!db.open || active.has(db)) return;
    db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
    db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
  };
}
