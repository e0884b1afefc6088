// While a bulk write runs (an import), WAL checkpoints move off the engine thread to a checkpoint worker
// (checkpoint-worker.ts) instead of stalling the writer every 32 MiB. Holds are counted: the writer's own
// autocheckpoint comes back when the last bulk write ends. Without the built worker (tests from source), or on
// an in-memory database, nothing changes.
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { packageRoot } from '../engine/package-root';
import { openOptionsOf, WAL_AUTOCHECKPOINT_PAGES, type Db } from './connection';

const CHECKPOINT_INTERVAL_MS = 25;
/**
 * The writer still checkpoints once the WAL passes this many pages (64 MiB): the worker rarely catches up
 * exactly when the writer begins, and only then can the WAL start over, so without this it would grow with
 * the whole import. By then the worker has copied nearly everything, so the writer's share is small.
 */
const WRITER_CHECKPOINT_PAGES = 1024;

const active = new Map<Db, { holds: number; stop: Int32Array; exited: Promise<void> }>();

function workerScript(): string | null {
  const file = path.join(packageRoot(), 'out', 'engine', 'checkpoint-worker.mjs');
  return fs.existsSync(file) ? file : null;
}

/** Starts (or joins) background checkpoints on `db`; call the returned function when the bulk write is over. */
export function holdBackgroundCheckpoints(db: Db): () => Promise<void> {
  let entry = active.get(db);
  if (!entry) {
    const script = workerScript();
    if (!script || db.memory) return async () => {};
    const stop = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(script, { workerData: { file: db.name, nativeBinding: openOptionsOf(db).nativeBinding, intervalMs: CHECKPOINT_INTERVAL_MS, stop } });
    worker.unref();
    const exited = new Promise<void>((resolve) => {
      worker.once('exit', () => resolve());
      worker.once('error', () => resolve()); // a failed checkpointer only means the writer checkpoints again
    });
    db.pragma(`wal_autocheckpoint = ${WRITER_CHECKPOINT_PAGES}`);
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
    if (db.open && !active.has(db)) db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
  };
}
