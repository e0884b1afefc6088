// A statistics worker thread: runs one job at a time on rows it reads itself, and posts the result back.
// Started with `workerData.foldPart` it is instead a helper of another stats worker: it folds one part of a file or
// dataset for a statistic's fold, posts that fold, and ends (fold-part.ts). Started with `spareHelper` it is such a
// helper started ahead, waiting for its part; a pool's worker (`keepSpareHelper`) keeps one ready.
// The statistics code loads after the first message (dynamic imports): a file the CLI sends ahead is cut and its
// second half handed to a helper thread first, so that thread starts while this one is still loading.
import { parentPort, workerData } from 'node:worker_threads';
import { StatsValueError } from '../../shared/stats/errors';
import { bindFold, foldStartKey, type RowFold } from '../../shared/stats/registry/define';
import { FileRows, foldFile, MissingFileError, secondPartOf, type SecondPart } from './file-rows';
import { foldedPart, foldPartElsewhere, keepSpareHelper, replenishSpareHelper, runFoldPart, waitAsSpare, type FoldPartData, type SpareHelperData } from './fold-part';
import { shareHere, type FoldPlacement } from './placement';
import type { JudgeLoader, ResolveFold } from './jobs';
import type { JobSource, StatsWorkerData, WorkerErrorShape, WorkerJobMessage, WorkerPreloadMessage, WorkerReply } from './protocol';
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
  return async (source: JobSource): Promise<unknown[]> => ('path' in source ? files.read(source.path) : (await readerFor(dbPath)).resolve(source));
}

/**
 * Files folded ahead (a preload that named its command), by statistic and path, with the start key of the fold
 * they were folded with (the job's flags were not known yet: an empty input); taken by the job that names them.
 */
const foldsAhead = new Map<string, { startKey: string; folding: Promise<unknown> }>();

/** A large file's second part (its half, or what follows a share of it for 'elsewhere'), folded by a helper thread started now (null for a small file or 'here'). */
function startSecondPart(file: string, statistic: string, params: Record<string, unknown>, placement: FoldPlacement): SecondPart<unknown> | null {
  if (placement === 'here') return null;
  const range = secondPartOf(file, shareHere(placement));
  return range ? { cut: range.start, folded: foldPartElsewhere({ statistic, params, file, range }) } : null;
}

/**
 * A file or dataset source of a statistic with a fold is folded (a part of it in a helper thread, by its
 * placement); rows sent along and a dataset's labeled rows alone are not.
 */
function foldResolver(dbPath: string | null): ResolveFold {
  return {
    folds: (source) => 'path' in source || ('dataset_id' in source && !source.labeled_only),
    fold(source, kind, fold, params, placement, startKey) {
      if ('path' in source) {
        const key = `${kind}\u0000${source.path}`;
        const ahead = foldsAhead.get(key);
        foldsAhead.delete(key);
        if (ahead && ahead.startKey === startKey) return ahead.folding;
        return foldFile(source.path, fold, startSecondPart(source.path, kind, params, placement));
      }
      if (!('dataset_id' in source)) throw new Error('only files and datasets are folded');
      const datasetId = source.dataset_id;
      return readerFor(dbPath).then((reader) =>
        reader.fold(datasetId, fold, dbPath ? (ordinals) => foldPartElsewhere({ statistic: kind, params, dbPath, datasetId, ordinals }) : undefined, placement),
      );
    },
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

/**
 * A preload: the file folded ahead when its command's statistic has a fold (placed as the job will place it; with
 * no flags known yet, the job takes this fold only if its own flags start the same fold), else read into the row
 * cache.
 */
async function preload(message: WorkerPreloadMessage): Promise<void> {
  const given = message.second;
  const placement = message.placement ?? 'split';
  const second = given ? { cut: given.cut, folded: foldedPart(given.reply) } : message.command ? startSecondPart(message.path, message.command, {}, placement) : null;
  const stat = message.command ? (await import('../../shared/stats/registry/index')).statisticNamed(message.command) : undefined;
  if (!stat?.fold) {
    second?.folded.catch(() => undefined); // the helper says it has no fold to run, and ends
    // The job that names this file waits for this read (or reads it again and reports what is wrong).
    files.read(message.path).catch(() => undefined);
    return;
  }
  const input = { params: {}, options: {} };
  const folding = foldFile(message.path, bindFold(stat.fold as RowFold<unknown>, input), second);
  folding.catch(() => undefined); // the job that takes it reports what is wrong
  foldsAhead.set(`${stat.name}\u0000${message.path}`, { startKey: foldStartKey(stat.fold, input), folding });
}

async function runJob(message: WorkerJobMessage): Promise<WorkerReply> {
  const started = performance.now();
  try {
    const { runStatsJob } = await import('./jobs');
    const output = await runStatsJob(message.request, resolver(message.db_path), loadJudge, foldResolver(message.db_path));
    return { type: 'result', job_id: message.job_id, output, ms: performance.now() - started };
  } catch (error) {
    return { type: 'error', job_id: message.job_id, error: describe(error) };
  }
}

if (!parentPort) throw new Error('stats-worker.mjs runs only as a worker thread');
const port = parentPort;
const part = workerData as Partial<FoldPartData> | null;

if (part?.foldPart && part.reply) {
  void runFoldPart(part as FoldPartData);
} else if ((workerData as Partial<SpareHelperData> | null)?.spareHelper) {
  void waitAsSpare(port);
} else {
  if ((workerData as Partial<StatsWorkerData> | null)?.keepSpareHelper) {
    // A pool's worker: a spare helper now, and the job code loaded ahead of the first job (each loads once).
    keepSpareHelper();
    void import('./jobs').catch(() => undefined);
    void import('../../shared/stats/registry/index').catch(() => undefined);
  }
  // Jobs run one after another, a preload before the job that takes it: each waits for the message before it.
  let previous: Promise<unknown> = Promise.resolve();
  port.on('message', (message: WorkerJobMessage | WorkerPreloadMessage) => {
    if (message?.type === 'preload') previous = previous.then(() => preload(message)).catch(() => undefined);
    else if (message?.type === 'job') {
      previous = previous.then(async () => {
        const reply = await runJob(message);
        try {
          port.postMessage(reply);
        } catch (error) {
          port.postMessage({ type: 'error', job_id: message.job_id, error: describe(error) } satisfies WorkerReply);
        }
        replenishSpareHelper();
      });
    }
  });
}
