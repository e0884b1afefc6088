// One module judge's worker thread, seen from the engine: started with its own heap limit, loaded under a
// deadline, its console output sent to stderr (never into a command's --json stdout), ended with terminate().
import { Worker } from 'node:worker_threads';
import { builtScript } from '../engine/package-root';
import { errorText } from './error-text';
import { PROGRESS_SLOTS, type FromWorker, type WorkerData } from './judge-protocol';

export interface IsolateOptions {
  file: string;
  /** V8 old-generation limit of the worker: a memory bomb ends this thread, not the engine. */
  heapMb: number;
  loadTimeoutMs: number;
}

export interface JudgeInfo {
  declaredName: string | null;
  fnName: string;
  scale: unknown;
}

/** A load that failed: the message names the file; `syntax` asks the caller to look up line:column. */
export class JudgeLoadError extends Error {
  constructor(
    message: string,
    readonly syntax = false,
  ) {
    super(message);
  }
}

export interface Isolate {
  worker: Worker;
  progress: Float64Array;
  info: JudgeInfo;
}

/** Judge output echoed to stderr, up to this much per isolate (a judge that logs every row cannot flood it). */
const ECHO_LIMIT = 64 * 1024;

function echo(worker: Worker): void {
  let left = ECHO_LIMIT;
  const forward = (chunk: Buffer) => {
    if (left <= 0) return;
    const text = chunk.toString('utf8');
    process.stderr.write(text.length > left ? `${text.slice(0, left)}\n[judge output cut off]\n` : text);
    left -= text.length;
  };
  worker.stdout.on('data', forward);
  worker.stderr.on('data', forward);
}

export function exitReason(code: number): string {
  return `the judge ended its thread (process.exit(${code}))`;
}

export function crashReason(error: unknown, heapMb: number): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ERR_WORKER_OUT_OF_MEMORY') return `the judge ran out of memory (heap limit ${heapMb} MiB)`;
  return `the judge crashed: ${errorText(error)}`;
}

export function startIsolate(options: IsolateOptions): Promise<Isolate> {
  const progress = new SharedArrayBuffer(PROGRESS_SLOTS * Float64Array.BYTES_PER_ELEMENT);
  const data: WorkerData = { file: options.file, progress };
  const worker = new Worker(builtScript('judge-worker.mjs'), {
    workerData: data,
    resourceLimits: { maxOldGenerationSizeMb: options.heapMb, maxYoungGenerationSizeMb: Math.min(48, Math.max(8, options.heapMb / 8)), stackSizeMb: 4 },
    stdout: true,
    stderr: true,
  });
  worker.unref();
  // Never an unhandled 'error' event in the engine, whatever the judge does; the pool listens for the details.
  worker.on('error', () => undefined);
  echo(worker);
  return new Promise<Isolate>((resolve, reject) => {
    const fail = (message: string, syntax = false) => {
      cleanup();
      void worker.terminate();
      reject(new JudgeLoadError(message, syntax));
    };
    const timer = setTimeout(() => fail(`did not finish loading within ${options.loadTimeoutMs / 1000} s (an endless loop at the top of the module?)`), options.loadTimeoutMs);
    const onMessage = (message: FromWorker) => {
      if (message?.type === 'ready') {
        cleanup();
        resolve({ worker, progress: new Float64Array(progress), info: { declaredName: typeof message.declared_name === 'string' ? message.declared_name : null, fnName: String(message.fn_name ?? ''), scale: message.scale } });
      } else if (message?.type === 'load_error') {
        fail(message.where ? `${String(message.message)} (at ${String(message.where)})` : String(message.message), message.syntax === true);
      }
    };
    const onError = (error: unknown) => fail(`${crashReason(error, options.heapMb)} while loading`);
    const onExit = (code: number) => fail(`${exitReason(code)} while loading`);
    const cleanup = () => {
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
  });
}
