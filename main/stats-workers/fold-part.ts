// One part of a statistic's rows folded in a helper thread for a stats worker (a statistic's fold, e.g. pass_at):
// the worker folds the first half of a file or dataset itself while this thread folds the second, so two cores
// parse at once and only the folds (a task map, a few counts), never the rows, cross between threads.
// The helper answers on a MessagePort of its own: whoever starts it (the stats worker, or the CLI before the stats
// worker has even started) hands the other end to whoever merges.
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { StatsValueError } from '../../shared/stats/errors';
import type { RowFold } from '../../shared/stats/registry/define';
import type { OrdinalRange } from '../rows/read';
import { builtScript } from '../engine/package-root';
import { foldFilePart, PartLineError, type ByteRange } from './file-rows';

/**
 * A part to fold: bytes of a JSONL file, or ordinals of a dataset in a database. `statistic` is its name or its
 * `while-desk stats` command (a file cut by the CLI before the worker knew which statistic it is for).
 */
export type FoldPartTask = { statistic: string } & ({ file: string; range: ByteRange } | { dbPath: string; datasetId: string; ordinals: OrdinalRange });

type PartReply = { ok: true; state: unknown; lines: number; version: number } | { ok: false; line?: number; message: string };

/** What a helper thread is started with. */
export interface FoldPartData {
  foldPart: FoldPartTask;
  /** Where it posts its one reply. */
  reply: MessagePort;
}

/** The statistic's fold the task names, from the registry (loaded here, after the thread has started). */
async function foldNamed(task: FoldPartTask): Promise<RowFold | undefined> {
  return (await import('../../shared/stats/registry/index')).statisticNamed(task.statistic)?.fold;
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

/** Starts a helper thread folding the part (its reply comes on `reply`; unref'd, so it never holds a process open). */
export function startFoldPart(task: FoldPartTask): StartedPart {
  const { port1, port2 } = new MessageChannel();
  const data: FoldPartData = { foldPart: task, reply: port1 };
  const worker = new Worker(builtScript('stats-worker.mjs'), { workerData: data, transferList: [port1] });
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
    reply.once('close', () => setImmediate(() => settle(() => reject(new Error('the statistics helper thread stopped before it answered')))));
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
