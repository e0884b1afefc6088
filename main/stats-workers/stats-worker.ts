// A statistics worker thread: runs one job at a time on rows it reads itself, and posts the result back.
import { parentPort } from 'node:worker_threads';
import { StatsValueError } from '../../shared/stats/errors';
import { runStatsJob, type JudgeLoader } from './jobs';
import { FileRows, MissingFileError } from './file-rows';
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

// Judges load only for judge_trust: their module graph (rules, LLM) stays out of a pass_at worker's start.
const loadJudge: JudgeLoader = async (spec, options) => (await import('../judges/load-judge')).loadJudge(spec, options);

function describe(error: unknown): WorkerErrorShape {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof StatsValueError || (error as { pythonType?: string })?.pythonType === 'ValueError') return { kind: 'value', message };
  if (error instanceof MissingFileError || (rowReaderModule && error instanceof rowReaderModule.MissingDatasetError)) return { kind: 'not_found', message };
  return { kind: 'other', message: error instanceof Error && error.name !== 'Error' ? `${error.name}: ${message}` : message };
}

if (!parentPort) throw new Error('stats-worker.mjs runs only as a worker thread');
const port = parentPort;

port.on('message', async (message: WorkerJobMessage | WorkerPreloadMessage) => {
  if (message?.type === 'preload') {
    // The job that names this file waits for this read (or reads it again and reports what is wrong).
    files.read(message.path).catch(() => undefined);
    return;
  }
  if (message?.type !== 'job') return;
  const started = performance.now();
  let reply: WorkerReply;
  try {
    const output = await runStatsJob(message.request, resolver(message.db_path), loadJudge);
    reply = { type: 'result', job_id: message.job_id, output, ms: performance.now() - started };
  } catch (error) {
    reply = { type: 'error', job_id: message.job_id, error: describe(error) };
  }
  port.postMessage(reply);
});
