// The export threads of a training export: started as the export starts, so they load while the engine thread
// begins, then given one job at a time (the selection pass's facts, then the conversion). `inPageOrder` runs a job
// over its pages on the threads and this thread together and hands the results on in page order.
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Db } from '../db/connection';
import { openOptionsOf } from '../db/connection';
import { builtScriptIfPresent } from '../engine/package-root';
import type { ExportThreadJob, ExportThreadMessage, ExportThreadStart, PageResult } from './export-worker';
import { PageClaims } from './page-claims';

/** Below this many rows the threads' start costs more than they save. */
export const THREADS_FROM_ROWS = 4000;

// A young generation of 16 MB: a page's parsed rows and text (200 rows) die young instead of being promoted (with 32
// MB the process peaked higher at the same speed). The old generation keeps V8's default: a bound of 48-1024 MB made
// no difference to the peak (2.9 s, 178-186 MB on 100k bench rows; the page's bytes are moved out, not kept), and a
// thread that reaches its bound can take the whole process down with it rather than fail alone.
const YOUNG_MB = 16;

/**
 * How many export threads to use beside the engine thread: one when the machine has a second core, none on one core
 * (the threads would only share it). WHILE_DESK_EXPORT_THREADS=N asks for N (0: everything on the engine thread).
 */
function wantedThreads(): number {
  const asked = process.env.WHILE_DESK_EXPORT_THREADS;
  if (asked !== undefined && asked !== '') {
    const n = Number(asked);
    return Number.isInteger(n) && n > 0 ? Math.min(n, 8) : 0;
  }
  return os.availableParallelism() >= 2 ? 1 : 0;
}

type WithoutClaims<J> = J extends unknown ? Omit<J, 'claims'> : never;
/** A job as its caller gives it: the claims are made per run. */
type JobWithoutClaims = WithoutClaims<ExportThreadJob>;

export class ExportPool {
  private workers: Worker[] = [];
  private readonly exited: Array<Promise<void>> = [];
  /** Threads stopped on purpose (closed or renewed): their exit is no failure. */
  private readonly retired = new WeakSet<Worker>();
  private closing = false;
  private listener: ((message: ExportThreadMessage | Error) => void) | null = null;
  private early: Array<ExportThreadMessage | Error> = [];

  private constructor(
    private readonly script: string,
    private readonly start: ExportThreadStart,
    private readonly threads: number,
  ) {
    this.spawn();
  }

  private spawn(): void {
    for (let i = 0; i < this.threads; i++) {
      const worker = new Worker(this.script, { workerData: this.start, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_MB } });
      const fromLive = (message: ExportThreadMessage | Error) => {
        if (!this.retired.has(worker)) this.deliver(message);
      };
      worker.on('message', fromLive);
      worker.on('error', fromLive);
      this.exited.push(
        new Promise((resolve) =>
          worker.once('exit', (code) => {
            if (code !== 0 && !this.retired.has(worker)) this.deliver(new Error(`an export thread stopped (exit ${code})`));
            resolve();
          }),
        ),
      );
      this.workers.push(worker);
    }
  }

  /**
   * Stops the threads between jobs; the next job starts fresh ones. A thread that read a selection's facts keeps the
   * heap they grew (some 50 MB) through the selection that follows, where the process peaks, and most selections
   * keep too few rows to need threads again.
   */
  rest(): void {
    for (const worker of this.workers) {
      this.retired.add(worker);
      void worker.terminate();
    }
    this.workers = [];
  }

  /**
   * Threads for an export of up to `rows` rows, or null to do everything on the engine thread: the thread script is
   * built (out/engine), the export is large enough, the database is a file, and threads are wanted.
   */
  static start(db: Db, rows: number): ExportPool | null {
    if (db.memory || rows < THREADS_FROM_ROWS) return null;
    const threads = wantedThreads();
    const script = threads ? builtScriptIfPresent('export-worker.cjs') : null;
    if (!script) return null;
    return new ExportPool(script, { dbPath: db.name, nativeBinding: openOptionsOf(db).nativeBinding }, threads);
  }

  private deliver(message: ExportThreadMessage | Error): void {
    if (this.closing) return; // a terminated thread's exit
    if (this.listener) this.listener(message);
    else this.early.push(message); // a thread that failed to start, before its first job
  }

  /**
   * Runs `job` over its pages: the threads and this thread (`here`, whenever the next page is not ready yet) each
   * claim the next page; `take` gets every page's result in page order, and nobody runs more than a few pages past
   * it. A thread's failure (or `take`'s, or `here`'s) stops the job and is thrown.
   */
  async inPageOrder<T extends PageResult>(job: JobWithoutClaims, pages: number, here: (seq: number) => T, take: (seq: number, result: T) => Promise<void>): Promise<void> {
    const claims = new PageClaims(pages);
    const ready = new Map<number, T>();
    let broken: Error | null = null;
    let wake: (() => void) | null = null;
    this.listener = (message) => {
      if (message instanceof Error) broken ??= message;
      else if (message.type === 'error') broken ??= Object.assign(new Error(message.message), { name: message.name });
      else ready.set(message.seq, message.result as T);
      wake?.();
    };
    for (const message of this.early.splice(0)) this.listener(message);
    if (!this.workers.length) this.spawn(); // after rest()
    for (const worker of this.workers) worker.postMessage({ ...job, claims: claims.shared });
    try {
      let looked = false;
      for (let next = 0; next < pages; ) {
        if (broken) throw broken;
        const result = ready.get(next);
        if (result === undefined) {
          // The threads' finished pages arrive as messages, delivered only when this thread yields: it looks once
          // before working a page of its own, or it works on while their pages wait undelivered and they sit at
          // their limit (0.5-0.7 s of a 5 s RL selection on 100k rows).
          if (!looked) {
            looked = true;
            await new Promise<void>((resolve) => setImmediate(resolve));
            continue;
          }
          looked = false;
          const claimed = claims.claim();
          if (typeof claimed === 'number') ready.set(claimed, here(claimed)); // the next page, or a later one while a thread has the next
          else {
            await new Promise<void>((resolve) => (wake = resolve));
            wake = null;
          }
          continue;
        }
        ready.delete(next);
        await take(next, result);
        next++;
        claims.written(next);
      }
    } catch (error) {
      claims.stop();
      throw error;
    } finally {
      this.listener = null;
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    for (const worker of this.workers) this.retired.add(worker);
    await Promise.all(this.workers.map((worker) => worker.terminate()));
    await Promise.all(this.exited);
  }
}
