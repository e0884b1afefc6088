// Checkpoints a database's WAL from its own thread and connection while the engine thread bulk-writes, so the
// writer only appends to the WAL and the copying into the database file happens on another core. Passive
// checkpoints never block the writer. Stops when the flag in `stop` turns 1.
import { workerData } from 'node:worker_threads';
import { sqliteDatabase } from './sqlite';

interface CheckpointWorkerData {
  file: string;
  nativeBinding?: string;
  intervalMs: number;
  stop: Int32Array;
}

const { file, nativeBinding, intervalMs, stop } = workerData as CheckpointWorkerData;
const Sqlite = sqliteDatabase();
const db = new Sqlite(file, nativeBinding ? { nativeBinding } : {});
db.pragma('busy_timeout = 1000');
try {
  while (Atomics.load(stop, 0) === 0) {
    db.pragma('wal_checkpoint(PASSIVE)');
    Atomics.wait(stop, 0, 0, intervalMs);
  }
} finally {
  db.close();
}
