// Starting the helper threads a stats worker hands a part of its rows to (fold-part.ts runs the part inside one):
// apart, because the CLI starts the helper of a large file's second half before any statistics thread has started,
// and loads only this (and file-parts.ts) to do it.
import { MessageChannel, type MessagePort, type Worker } from 'node:worker_threads';
import type { OrdinalRange } from '../rows/read';
import type { ByteRange } from './file-parts';
import { startStatsThread } from './stats-thread';

/**
 * A part to fold: bytes of a JSONL file, or ordinals of a dataset in a database. `statistic` is its name or its
 * `while-desk stats` command (a file cut by the CLI before the worker knew which statistic it is for); `params`
 * the job's, for a fold whose start reads them (none: {}).
 */
export type FoldPartTask = { statistic: string; params?: Record<string, unknown> } & (
  | { file: string; range: ByteRange }
  | { dbPath: string; datasetId: string; ordinals: OrdinalRange }
);

/** What a helper thread is started with. */
export interface FoldPartData {
  foldPart: FoldPartTask;
  /** Where it posts its one reply. */
  reply: MessagePort;
}

/** A started helper thread: the port its reply comes on, and the thread (to stop it once it is not needed). */
export interface StartedPart {
  reply: MessagePort;
  worker: Worker;
}

/** What a spare helper thread is started with: it loads what a fold needs, then waits for its FoldPartData. */
export interface SpareHelperData {
  spareHelper: true;
}

/**
 * A helper thread started ahead, its modules already loaded, waiting for the one part it will fold: a thread's
 * start (some 130 ms here, more while the cores are busy) is then off the job's path. A stats worker of a pool
 * keeps one (keepSpareHelper), the CLI's early worker none: there it would compete with the job for the cores.
 */
let spare: Worker | null = null;
let keepSpare = false;

function startSpare(): void {
  if (!keepSpare || spare) return;
  const data: SpareHelperData = { spareHelper: true };
  const worker = startStatsThread({ workerData: data });
  worker.unref();
  worker.on('error', () => undefined); // a spare that failed is never handed a part (below)
  worker.once('exit', () => {
    if (spare === worker) spare = null;
  });
  spare = worker;
}

/** This thread keeps a spare helper from now on (and starts it now). */
export function keepSpareHelper(): void {
  keepSpare = true;
  startSpare();
}

/** A new spare when the last one was taken: called once the job that took it is done, so it never slows one. */
export function replenishSpareHelper(): void {
  startSpare();
}

/** Starts a helper thread folding the part, or hands it to the spare (its reply comes on `reply`; unref'd, so it never holds a process open). */
export function startFoldPart(task: FoldPartTask): StartedPart {
  const { port1, port2 } = new MessageChannel();
  const data: FoldPartData = { foldPart: task, reply: port1 };
  const taken = spare;
  spare = null;
  if (taken) {
    taken.postMessage(data, [port1]);
    return { reply: port2, worker: taken };
  }
  const worker = startStatsThread({ workerData: data, transferList: [port1] });
  worker.unref();
  worker.on('error', () => undefined); // the port closes without a reply: foldedPart rejects
  return { reply: port2, worker };
}
