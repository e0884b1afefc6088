// A statistics worker thread: runs one job at a time on rows it reads itself, and posts the result back.
import { parentPort } from 'node:worker_threads';
import { StatsValueError } from '../../shared/stats/errors';
import { loadJudge } from '../judges/load-judge';
import { runStatsJob } from './jobs';
import type { WorkerErrorShape, WorkerJobMessage, WorkerReply } from './protocol';
import { MissingDatasetError, RowReader } from './row-reader';

const readers = new Map<string, RowReader>();

function readerFor(dbPath: string | null): RowReader {
  const key = dbPath ?? '';
  let reader = readers.get(key);
  if (!reader) {
    reader = new RowReader(dbPath);
    readers.set(key, reader);
  }
  return reader;
}

function describe(error: unknown): WorkerErrorShape {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof StatsValueError || (error as { pythonType?: string })?.pythonType === 'ValueError') return { kind: 'value', message };
  if (error instanceof MissingDatasetError) return { kind: 'not_found', message };
  return { kind: 'other', message: error instanceof Error && error.name !== 'Error' ? `${error.name}: ${message}` : message };
}

if (!parentPort) throw new Error('stats-worker.mjs runs only as a worker thread');
const port = parentPort;

port.on('message', async (message: WorkerJobMessage) => {
  if (message?.type !== 'job') return;
  const started = performance.now();
  let reply: WorkerReply;
  try {
    const reader = readerFor(message.db_path);
    const output = await runStatsJob(message.request, (source) => reader.resolve(source), loadJudge);
    reply = { type: 'result', job_id: message.job_id, output, ms: performance.now() - started };
  } catch (error) {
    reply = { type: 'error', job_id: message.job_id, error: describe(error) };
  }
  port.postMessage(reply);
});
