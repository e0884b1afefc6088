// One part of a statistic's rows folded in a helper thread for a stats worker (a statistic's fold, e.g. pass_at):
// the worker folds the first half of a file or dataset itself while this thread folds the second, so two cores
// parse at once and only the folds (a task map, a few counts), never the rows, cross between threads.
import { Worker, type MessagePort } from 'node:worker_threads';
import { StatsValueError } from '../../shared/stats/errors';
import type { RowFold } from '../../shared/stats/registry/define';
import type { OrdinalRange } from '../rows/read';
import { builtScript } from '../engine/package-root';
import { foldFilePart, PartLineError, type ByteRange } from './file-rows';

/**
 * A part to fold: bytes of a JSONL file, or ordinals of a dataset in a database; by the statistic's name (`kind`)
 * or its `while-desk stats` command (a file cut before the worker knew which statistic it is for).
 */
export type FoldPartTask = ({ kind: string } | { command: string }) & ({ file: string; range: ByteRange } | { dbPath: string; datasetId: string; ordinals: OrdinalRange });

/** The statistic's fold the task names, from the registry (loaded here, after the thread has started). */
async function foldNamed(task: FoldPartTask): Promise<RowFold | undefined> {
  const { statistics } = await import('../../shared/stats/registry/index');
  return statistics.find((stat) => ('kind' in task ? stat.name === task.kind : stat.command === task.command))?.fold;
}

type PartReply = { ok: true; state: unknown; lines: number; version: number } | { ok: false; line?: number; message: string };

/** Inside the helper thread: folds the part and posts the fold (or the refused line), once. */
export async function runFoldPart(task: FoldPartTask, port: MessagePort): Promise<void> {
  let reply: PartReply;
  try {
    const fold = await foldNamed(task);
    if (!fold) throw new Error(`the statistic ${'kind' in task ? task.kind : task.command} has no fold`);
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
}

/** Folds the part in a new helper thread; rejects with PartLineError for a refused line (numbered within the part). */
export function foldPartElsewhere(task: FoldPartTask): Promise<{ state: unknown; lines: number; version: number }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(builtScript('stats-worker.mjs'), { workerData: { foldPart: task } });
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      outcome();
      void worker.terminate();
    };
    worker.once('message', (reply: PartReply) =>
      settle(() => {
        if (reply.ok) resolve({ state: reply.state, lines: reply.lines, version: reply.version });
        else if (reply.line !== undefined) reject(new PartLineError(reply.line, reply.message));
        else reject(new StatsValueError(reply.message));
      }),
    );
    worker.once('error', (error) => settle(() => reject(error)));
    worker.once('exit', (code) => settle(() => reject(new Error(`the statistics helper thread stopped (exit code ${code})`))));
  });
}
