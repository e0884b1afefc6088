// One part of a statistic's rows folded in a helper thread for a stats worker (a statistic's fold, e.g. pass_at):
// the worker folds the first half of a file or dataset itself while this thread folds the second, so two cores
// parse at once and only the folds (a task tally, a few counts), never the rows, cross between threads.
// The helper answers on a MessagePort of its own: whoever starts it (the stats worker, or the CLI before the stats
// worker has even started) hands the other end to whoever merges.
import type { MessagePort, Worker } from 'node:worker_threads';
import { StatsValueError } from '../../shared/stats/errors';
import { bindFold, type BoundFold } from '../../shared/stats/registry/define';
import { foldFilePart, PartLineError } from './file-rows';
import { startFoldPart, type FoldPartData, type FoldPartTask } from './helper-threads';

type PartReply = { ok: true; state: unknown; lines: number; version: number } | { ok: false; line?: number; message: string };

/** The statistic's fold the task names, from the registry (loaded here, after the thread has started), started with its params. */
async function foldNamed(task: FoldPartTask): Promise<BoundFold | undefined> {
  const stat = (await import('../../shared/stats/registry/index')).statisticNamed(task.statistic);
  return stat?.fold && bindFold(stat, { params: task.params ?? {}, options: {} });
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

/** Inside a spare helper: loads the statistics and the database reader now, then folds the part it is sent. */
export async function waitAsSpare(port: MessagePort): Promise<void> {
  await Promise.all([import('../../shared/stats/registry/index'), import('./row-reader')]);
  port.once('message', (data: FoldPartData) => void runFoldPart(data));
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
