// A statistics worker thread: runs one job at a time on rows it reads itself, and posts the result back.
// Started with `workerData.foldPart` it is instead a helper of another stats worker: it folds one part of a file or
// dataset for a statistic's fold, posts that fold, and ends (fold-part.ts). Started with `spareHelper` it is such a
// helper started ahead, waiting for its part; a pool's worker (`keepSpareHelper`) keeps one ready.
// The statistics code loads after the first message (dynamic imports): a file the CLI sends ahead is cut and its
// second half handed to a helper thread first, so that thread starts while this one is still loading.
import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { StatsValueError } from '../../shared/stats/errors';
import { bindFold, foldStartKey, readsFor, readsKey } from '../../shared/stats/registry/define';
import { secondPartOf } from './file-parts';
import { FileRows, foldFile, MissingFileError, type SecondPart } from './file-rows';
import { foldedPart, foldPartElsewhere, runFoldPart, waitAsSpare } from './fold-part';
import { keepSpareHelper, replenishSpareHelper, type FoldPartData, type SpareHelperData } from './helper-threads';
import { shareHere, type FoldPlacement } from './placement';
import type { JudgeLoader, ResolveFold } from './jobs';
import type { JobSource, StatsWorkerData, WorkerErrorShape, WorkerFlushMessage, WorkerJobMessage, WorkerKeepMessage, WorkerPreloadMessage, WorkerReply } from './protocol';
import type { FoldToKeep, RowReader } from './row-reader';

// The database reader (better-sqlite3, a native module) loads with the first dataset source (a job on files never
// needs it), or ahead in a pool's worker whose jobs read datasets.
type RowReaderModule = typeof import('./row-reader');
let rowReaderModule: RowReaderModule | null = null;
const readers = new Map<string, RowReader>();
const files = new FileRows();
/** Kept folds (BoundFold.keepKey) jobs made and not yet sent, and the timer that will send them. */
let unsent: FoldToKeep[] = [];
let sendTimer: NodeJS.Timeout | null = null;

async function readerModule(): Promise<RowReaderModule> {
  rowReaderModule ??= await import('./row-reader');
  return rowReaderModule;
}

async function readerFor(dbPath: string | null): Promise<RowReader> {
  const { RowReader } = await readerModule();
  const key = dbPath ?? '';
  let reader = readers.get(key);
  if (!reader) {
    reader = new RowReader(dbPath, (fold) => unsent.push(fold));
    readers.set(key, reader);
  }
  return reader;
}

function resolver(dbPath: string | null) {
  return async (source: JobSource, reads: readonly string[] | 'row'): Promise<unknown[]> =>
    'path' in source ? files.read(source.path, reads) : (await readerFor(dbPath)).resolve(source, reads);
}

/** A fold made ahead serves a job whose fold starts the same and reads the same fields. */
const aheadKey = (startKey: string, reads: readonly string[] | 'row') => `${startKey}\u0001${readsKey(reads)}`;

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
        if (ahead && ahead.startKey === aheadKey(startKey, fold.reads)) return ahead.folding;
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
  const folding = foldFile(message.path, bindFold(stat, input), second);
  folding.catch(() => undefined); // the job that takes it reports what is wrong
  foldsAhead.set(`${stat.name}\u0000${message.path}`, { startKey: aheadKey(foldStartKey(stat.fold, input), readsFor(stat.reads, input)), folding });
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

/**
 * How long after a job's reply its kept folds are serialized: the reply's reader (a screen drawing the report)
 * gets the cores first. Encoding a fold of 100k rows takes 20-70 ms here.
 */
const KEEP_AFTER_MS = 300;

/** After a job's reply: its kept folds go to the engine, which writes them, a moment later (off the job's own time). */
function sendFoldsSoon(): void {
  if (unsent.length > 0) sendTimer ??= setTimeout(() => void sendUnsent(), KEEP_AFTER_MS);
}

/** Each unsent fold serialized and posted: when the timer fires, or at once when a closing pool asks (flush-keeps). */
async function sendUnsent(): Promise<void> {
  if (sendTimer) clearTimeout(sendTimer);
  sendTimer = null;
  const folds = unsent;
  unsent = [];
  if (folds.length === 0) return;
  const { serializeFold } = await import('../rows/kept-folds');
  for (const fold of folds) {
    try {
      const state = serializeFold(fold.state);
      const message: WorkerKeepMessage = { type: 'keep', dataset_id: fold.datasetId, key: fold.key, version: fold.version, state };
      port.postMessage(message);
    } catch {
      // not kept: the next job on it folds the rows again
    }
  }
}

/**
 * A statistics thread runs below the rest of the machine: the window (and the engine's own thread) get the cores
 * first, and the statistics take what they leave. Linux keeps a nice value per thread, so this lowers this thread
 * and the helpers it starts, nothing else; elsewhere os.setPriority would lower the whole process, so it is left.
 * The compare screen opened straight from its address on two cores: no long task in 6 of 12 loads against 2 of 12 at
 * the same time to the report (a lean more than a proof: the page's clock is noisy here); `stats pass-at FILE` no
 * slower (test/bench/compare-screen.bench.mjs, stats.bench.mjs).
 */
const STATS_THREAD_NICE = 10;
if (process.platform === 'linux') {
  try {
    os.setPriority(0, STATS_THREAD_NICE);
  } catch {
    // a sandbox that refuses it: the thread runs at the usual priority
  }
}

if (!parentPort) throw new Error('stats-worker.cjs runs only as a worker thread');
const port = parentPort;
const part = workerData as Partial<FoldPartData> | null;

/**
 * A pool's worker started with its host (pool.warm(): spareLater) starts its spare helper only this long after: a
 * thread's start takes a core for some 0.1 s, which the window's first page would otherwise share. Its job code
 * loads at once: a first job that loads it itself waits 80-260 ms for it while that page loads (the compare
 * screen's report, the label desk's trust panel). Measured with test/bench/label-cold.bench.mjs (first row: median
 * 0.70 s against 0.79 s when the code also waited) and compare-screen.bench.mjs.
 */
const SPARE_HELPER_AFTER_MS = 1500;

if (part?.foldPart && part.reply) {
  void runFoldPart(part as FoldPartData);
} else if ((workerData as Partial<SpareHelperData> | null)?.spareHelper) {
  void waitAsSpare(port);
} else {
  const data = workerData as Partial<StatsWorkerData> | null;
  if (data?.keepSpareHelper) {
    // A pool's worker: its job code (and the database reader) loaded ahead of the first job, and a spare helper kept,
    // started a moment later when the worker was started ahead of any job (SPARE_HELPER_AFTER_MS).
    void import('./jobs').catch(() => undefined);
    void import('../../shared/stats/registry/index').catch(() => undefined);
    if (data.readsDatasets) void readerModule().catch(() => undefined);
    if (data.spareLater) setTimeout(keepSpareHelper, SPARE_HELPER_AFTER_MS).unref();
    else keepSpareHelper();
  }
  // Jobs run one after another, a preload before the job that takes it: each waits for the message before it.
  let previous: Promise<unknown> = Promise.resolve();
  port.on('message', (message: WorkerJobMessage | WorkerPreloadMessage | WorkerFlushMessage) => {
    if (message?.type === 'flush-keeps') {
      // After the job before it (which may add folds), every unsent fold now, then the answer that all were sent.
      previous = previous
        .then(sendUnsent)
        .catch(() => undefined)
        .finally(() => port.postMessage({ type: 'keeps-flushed' } satisfies WorkerReply));
    } else if (message?.type === 'preload') previous = previous.then(() => preload(message)).catch(() => undefined);
    else if (message?.type === 'job') {
      previous = previous.then(async () => {
        const reply = await runJob(message);
        try {
          port.postMessage(reply);
        } catch (error) {
          port.postMessage({ type: 'error', job_id: message.job_id, error: describe(error) } satisfies WorkerReply);
        }
        sendFoldsSoon();
        replenishSpareHelper();
      });
    }
  });
}
