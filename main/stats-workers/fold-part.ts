// One part of a statistic's rows folded in a helper thread for a stats worker (a statistic's fold, e.g. pass_at):
// the worker folds the first half of a file or dataset itself while this thread folds the second, so two cores
// parse at once and only the folds (a task map, a few counts), never the rows, cross between threads.
// The helper answers on a MessagePort of its own: whoever starts it (the stats worker, or the CLI before the stats
// worker has even started) hands the other end to whoever merges.
import { MessageChannel, type MessagePort, type Worker } from 'node:worker_threads';
import { StatsValueError } from '../../shared/stats/errors';
import { bindFold, type BoundFold } from '../../shared/stats/registry/define';
import type { OrdinalRange } from '../rows/read';
import { startStatsThread } from './stats-thread';
import { foldFilePart, PartLineError, type ByteRange } from './file-rows';

/**
 * A part to fold: bytes of a JSONL file, or ordinals of a dataset in a database. `statistic` is its name or its
 * `while-desk stats` command (a file cut by the CLI before the worker knew which statistic it is for); `params`
 * the job's, for a fold whose start reads them (none: {}).
 */
export type FoldPartTask = { statistic: string; params?: Record<string, unknown> } & (
  | { file: string; range: ByteRange }
  | { dbPath: string; datasetId: string; ordinals: OrdinalRange }
);

type PartReply = { ok: true; state: unknown; lines: number; version: number } | { ok: false; line?: number; message: string };

/** What a helper thread is started with. */
export interface FoldPartData {
  foldPart: FoldPartTask;
  /** Where it posts its one reply. */
  reply: MessagePort;
}

/** The statistic's fold the task names, from the registry (loaded here, after the thread has started), started with its params. */
async function foldNamed(task: FoldPartTask): Promise<BoundFold | undefined> {
  const fold = (await import('../../shared/stats/registry/index')).statisticNamed(task.statistic)?.fold;
  return fold && bindFold(fold, { params: task.params ?? {}, options: {} });
}

/** Inside the helper thread: folds the part and posts the fold (or the refused line), once, then closes the port. */
export async function runFoldPart({ foldPart: task, reply: port }: FoldPartData): Promise<void> {
  let reply: PartReply;
  try {
    const fold = await foldNamed(task);
    if (!fold) throw new Error(`the statistic ${task.statistic} has no fold`);
    if ('file' in task) {
      reply = { ok: true, ...(await foldFilePart(task.file, task.range, fold)), version: 0 };
    } else {
      const reader = new (await import('./row-reader')).RowReader(task.dbPath);
      try {
        reply = { ok: true, ...reader.foldPart(task.datasetId, fold, task.ordinals), lines: 0 };
      } finally {
        reader.close();
      }
    }
  } catch (error) {
    reply = error instanceof PartLineError ? { ok: false, line: error.line, message: error.reason } : { ok: false, message: (error as Error).message };
  }
  port.postMessage(reply);
  port.close();
}

export type FoldedPart = { state: unknown; lines: number; version: number };

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

/** Inside a spare helper: loads the statistics and the database reader now, then folds the part it is sent. */
export async function waitAsSpare(port: MessagePort): Promise<void> {
  await Promise.all([import('../../shared/stats/registry/index'), import('./row-reader')]);
  port.once('message', (data: FoldPartData) => void runFoldPart(data));
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

/** The helper's reply; rejects with PartLineError for a refused line (numbered within the part), or when it died. */
export function foldedPart(reply: MessagePort, worker?: Worker): Promise<FoldedPart> {
  const folded = new Promise<FoldedPart>((resolve, reject) => {
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      outcome();
      reply.close();
      void worker?.terminate();
    };
    reply.once('message', (answer: PartReply) =>
      settle(() => {
        if (answer.ok) resolve({ state: answer.state, lines: answer.lines, version: answer.version });
        else if (answer.line !== undefined) reject(new PartLineError(answer.line, answer.message));
        else reject(new StatsValueError(answer.message));
      }),
    );
    // A reply posted just before the port closed is still delivered first: look again on the next turn.
    const stopped = () => setImmediate(() => settle(() => reject(new Error('the statistics helper thread stopped before it answered'))));
    reply.once('close', stopped);
    // A spare that died before it took the part may never close the port it was sent: its exit says so. The
    // reply of a helper that answered and ended can arrive after its exit event, so give it time first.
    worker?.once('exit', () => setTimeout(stopped, 500).unref());
  });
  // The merge awaits it only after this thread has folded its own half: a helper that fails first must not be an
  // unhandled rejection meanwhile (it would end the thread). Whoever awaits it still gets the error.
  folded.catch(() => undefined);
  return folded;
}

/** Folds the part in a new helper thread. */
export function foldPartElsewhere(task: FoldPartTask): Promise<FoldedPart> {
  const started = startFoldPart(task);
  return foldedPart(started.reply, started.worker);
}
