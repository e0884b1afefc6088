// A statistics worker thread: runs one job at a time on rows it reads itself, and posts the result back.
// Started with `workerData.foldPart` it is instead a helper of another stats worker: it folds one part of a file
// for a statistic's fold, posts that fold, and ends (fold-part.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { StatsValueError } from '../../shared/stats/errors';
import { statistics, statisticNamed, type RowFold } from '../../shared/stats/registry/index';
import { runStatsJob, type JudgeLoader, type ResolveFold } from './jobs';
import { FileRows, foldFile, MissingFileError } from './file-rows';
import { foldPartElsewhere, runFoldPart, type FoldPartTask } from './fold-part';
import type { JobSource, WorkerErrorShape, WorkerJobMessage, WorkerPreloadMessage, WorkerReply } from './protocol';
import type { RowReader } from './row-reader';

// The database reader (better-sqlite3, a native module) loads with the first dataset source: a job on files never needs it.
type RowReaderModule = typeof import('./row-reader');
let rowReaderModule: RowReaderModule | null = null;
const readers = new Map<string, RowReader>();
const files = new FileRows();

async function readerFor(dbPath: string | null): Promise<RowReader> {
  rowReaderModule ??= await import('./row-reader');
  const key = dbPath ?? '';
  let reader = readers.get(key);
  if (!reader) {
    reader = new rowReaderModule.RowReader(dbPath);
    readers.set(key, reader);
  }
  return reader;
}

function resolver(dbPath: string | null) {
  // `reads` (the fields the statistic reads) is a hint a reader may use; files and datasets are read whole today.
  return async (source: JobSource): Promise<unknown[]> => ('path' in source ? files.read(source.path) : (await readerFor(dbPath)).resolve(source));
}

/** Files folded ahead (a preload that named its statistic), by statistic and path, taken by the job that names them. */
const foldsAhead = new Map<string, Promise<unknown>>();

function foldOf(kind: string, path: string, fold: RowFold): Promise<unknown> {
  return foldFile(path, fold, (range) => foldPartElsewhere({ kind, file: path, range }));
}

/**
 * A file or dataset source of a statistic with a fold is folded (its second half in a helper thread); rows sent
 * along and a dataset's labeled rows alone are not.
 */
function foldResolver(dbPath: string | null): ResolveFold {
  return (source, kind, fold) => {
    if ('path' in source) {
      const key = `${kind}\u0000${source.path}`;
      const ahead = foldsAhead.get(key);
      foldsAhead.delete(key);
      return ahead ?? foldOf(kind, source.path, fold);
    }
    if (!('dataset_id' in source) || source.labeled_only) return null;
    const datasetId = source.dataset_id;
    return readerFor(dbPath).then((reader) =>
      reader.fold(datasetId, fold, dbPath ? (ordinals) => foldPartElsewhere({ kind, dbPath, datasetId, ordinals }) : undefined),
    );
  };
}

// Judges load only for judge_trust: their module graph (rules, LLM) stays out of a pass_at worker's start.
const loadJudge: JudgeLoader = async (spec, options) => (await import('../judges/load-judge')).loadJudge(spec, options);

function describe(error: unknown): WorkerErrorShape {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof StatsValueError || (error as { pythonType?: string })?.pythonType === 'ValueError') return { kind: 'value', message };
  if (error instanceof MissingFileError || (rowReaderModule && error instanceof rowReaderModule.MissingDatasetError)) return { kind: 'not_found', message };
  return { kind: 'other', message: error instanceof Error && error.name !== 'Error' ? `${error.name}: ${message}` : message };
}

/** A preload: the file folded ahead when its command's statistic has a fold, else read into the row cache. */
function preload(message: WorkerPreloadMessage): void {
  const stat = message.command ? statistics.find((entry) => entry.command === message.command) : undefined;
  if (stat?.fold) {
    const folding = foldOf(stat.name, message.path, stat.fold);
    folding.catch(() => undefined); // the job that takes it reports what is wrong
    foldsAhead.set(`${stat.name}\u0000${message.path}`, folding);
    return;
  }
  // The job that names this file waits for this read (or reads it again and reports what is wrong).
  files.read(message.path).catch(() => undefined);
}

if (!parentPort) throw new Error('stats-worker.mjs runs only as a worker thread');
const port = parentPort;
const part = (workerData as { foldPart?: FoldPartTask } | null)?.foldPart;

if (part) {
  void runFoldPart(part, port, statisticNamed(part.kind)?.fold);
} else {
  port.on('message', async (message: WorkerJobMessage | WorkerPreloadMessage) => {
    if (message?.type === 'preload') return preload(message);
    if (message?.type !== 'job') return;
    const started = performance.now();
    let reply: WorkerReply;
    try {
      const output = await runStatsJob(message.request, resolver(message.db_path), loadJudge, foldResolver(message.db_path));
      reply = { type: 'result', job_id: message.job_id, output, ms: performance.now() - started };
    } catch (error) {
      reply = { type: 'error', job_id: message.job_id, error: describe(error) };
    }
    port.postMessage(reply);
  });
}
