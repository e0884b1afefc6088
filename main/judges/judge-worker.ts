// The worker a module judge runs in (bundled as out/engine/judge-worker.mjs): loads the user's module, then judges
// the chunks of rows the engine sends, one row at a time, writing which row it is on into shared memory so the
// engine's watchdog can end this thread when a row overruns (even a synchronous endless loop).
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import { errorText } from './error-text';
import { PROGRESS_CHUNK, PROGRESS_INDEX, PROGRESS_STARTED, type FromWorker, type RowOutcome, type ToWorker, type WorkerData } from './judge-protocol';
import { snapshotResult } from './verdict-snapshot';

const port = parentPort!;
// Taken before the judge loads: its code may replace port.postMessage, not the engine's copy.
const post = port.postMessage.bind(port) as (message: FromWorker) => void;
const { file, progress: buffer } = workerData as WorkerData;
const progress = new Float64Array(buffer);
const prototypeKeys = Reflect.ownKeys(Object.prototype).length;

const NONE = Symbol('none');
let rejection: unknown = NONE;
// A promise the judge let fail unobserved is charged to the row being judged, not allowed to end the thread.
process.on('unhandledRejection', (reason) => {
  rejection = reason;
});

type JudgeFn = (row: Record<string, unknown>) => unknown;
let judgeFn: JudgeFn | null = null;

const polluted = () => Reflect.ownKeys(Object.prototype).length !== prototypeKeys;
const pollutedKeys = () => Reflect.ownKeys(Object.prototype).slice(prototypeKeys).map(String);
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

function whereInFile(error: unknown): string | null {
  try {
    const stack = error instanceof Error ? String(error.stack ?? '') : '';
    const url = pathToFileURL(file).href;
    const at = stack.indexOf(`${url}:`);
    if (at < 0) return null;
    const match = /^:(\d+):(\d+)/.exec(stack.slice(at + url.length));
    return match ? `${file}:${match[1]}:${match[2]}` : null;
  } catch {
    return null;
  }
}

async function load(): Promise<void> {
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    await nextTurn();
  } catch (error) {
    post({ type: 'load_error', message: errorText(error), syntax: error instanceof SyntaxError, where: whereInFile(error) });
    return;
  }
  if (rejection !== NONE) return post({ type: 'load_error', message: `an unhandled rejection while loading: ${errorText(rejection)}`, syntax: false, where: whereInFile(rejection) });
  if (polluted()) return post({ type: 'load_error', message: `the module changes Object.prototype while loading (${pollutedKeys().join(', ')})`, syntax: false, where: null });
  const fn = typeof module.default === 'function' ? module.default : module.judge;
  if (typeof fn !== 'function') return post({ type: 'load_error', message: 'must export a default function (row) => reward or {reward, markers}', syntax: false, where: null });
  judgeFn = fn as JudgeFn;
  let scale: unknown;
  try {
    scale = module.scale === undefined ? undefined : JSON.parse(JSON.stringify(module.scale));
  } catch {
    scale = 'unreadable';
  }
  post({ type: 'ready', declared_name: typeof module.name === 'string' ? module.name : null, fn_name: String(judgeFn.name ?? ''), scale });
}

async function judgeOne(row: Record<string, unknown>): Promise<RowOutcome> {
  rejection = NONE;
  let outcome: RowOutcome;
  try {
    let value = judgeFn!(row);
    if (value !== null && (typeof value === 'object' || typeof value === 'function') && typeof (value as { then?: unknown }).then === 'function') value = await value;
    outcome = snapshotResult(value);
  } catch (error) {
    outcome = { status: 'error', meta: { error: errorText(error) } };
  }
  // One turn of the event loop, so a rejection this row left unobserved is reported before its verdict goes out.
  await nextTurn();
  if (rejection !== NONE) outcome = { status: 'error', meta: { error: `unhandled rejection: ${errorText(rejection)}` } };
  return outcome;
}

/** Results go back at the end of the chunk, or sooner when rows are slow, so a later timeout loses little work. */
const FLUSH_MS = 20;

async function runChunk(message: ToWorker): Promise<void> {
  const { id, rows } = message;
  progress[PROGRESS_CHUNK] = id;
  let from = 0;
  let outcomes: RowOutcome[] = [];
  let flushedAt = Date.now();
  for (let i = 0; i < rows.length; i++) {
    progress[PROGRESS_INDEX] = i;
    progress[PROGRESS_STARTED] = Date.now();
    outcomes.push(await judgeOne(rows[i]));
    if (polluted()) {
      // Own keys only are read, so no reward leaks; still, this realm is spoilt: the engine starts a fresh one.
      outcomes[outcomes.length - 1] = { status: 'invalid_result', meta: { prototype_polluted: pollutedKeys(), problem: 'the judge changed Object.prototype' } };
      progress[PROGRESS_STARTED] = 0;
      return post({ type: 'results', id, from, outcomes, retire: true });
    }
    const now = Date.now();
    if (i === rows.length - 1 || now - flushedAt > FLUSH_MS) {
      post({ type: 'results', id, from, outcomes });
      from = i + 1;
      outcomes = [];
      flushedAt = now;
    }
  }
  progress[PROGRESS_STARTED] = 0;
}

port.on('message', (message: ToWorker) => {
  if (message?.type === 'chunk' && judgeFn) void runChunk(message);
});
void load();
