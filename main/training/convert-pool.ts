// The conversion threads of a training export: started as the export starts, so they load while the engine thread
// plans the selection, and given their job once the plan is known.
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { GroupTally } from '../../shared/training/index';
import { openOptionsOf, type Db } from '../db/connection';
import { builtScriptIfPresent } from '../engine/package-root';
import type { ConvertJob, ConvertMessage, ConvertStart } from './convert-worker';

/** Below this many rows the threads' start costs more than they save. */
export const THREADS_FROM_ROWS = 4000;
// A young generation of 16 MB: a page's parsed rows and text (200 rows) die young instead of being promoted (with 32
// MB the process peaked higher at the same speed). The old generation keeps V8's default: a bound of 48-1024 MB made
// no difference to the peak (2.9 s, 178-186 MB on 100k bench rows; the page's bytes are moved out, not kept), and a
// thread that reaches its bound can take the whole process down with it rather than fail alone.
const YOUNG_MB = 16;

/**
 * How many conversion threads to use beside the engine thread: one when the machine has a second core, none on one
 * core (the threads would only share it). WHILE_DESK_EXPORT_THREADS=N asks for N (0: convert on the engine thread).
 */
function wantedThreads(): number {
  const asked = process.env.WHILE_DESK_EXPORT_THREADS;
  if (asked !== undefined && asked !== '') {
    const n = Number(asked);
    return Number.isInteger(n) && n > 0 ? Math.min(n, 8) : 0;
  }
  return os.availableParallelism() >= 2 ? 1 : 0;
}

export interface PoolEvents {
  page(message: Extract<ConvertMessage, { type: 'page' }>): void;
  /** A thread failed (a gate's refusal, a disk error, a crash): the export stops with it. */
  failed(error: Error): void;
}

export class ConvertPool {
  private readonly workers: Worker[] = [];
  private readonly exited: Array<Promise<void>> = [];
  private events: PoolEvents | null = null;
  private closing = false;
  private readonly early: Array<(events: PoolEvents) => void> = [];

  private constructor(script: string, start: ConvertStart, threads: number) {
    for (let i = 0; i < threads; i++) {
      const worker = new Worker(script, { workerData: start, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_MB } });
      worker.on('message', (message: ConvertMessage) => {
        if (message.type === 'page') this.emit((events) => events.page(message));
        else this.emit((events) => events.failed(Object.assign(new Error(message.message), { name: message.name })));
      });
      worker.on('error', (error: Error) => this.emit((events) => events.failed(error)));
      this.exited.push(
        new Promise((resolve) =>
          worker.once('exit', (code) => {
            if (code !== 0) this.emit((events) => events.failed(new Error(`a conversion thread stopped (exit ${code})`)));
            resolve();
          }),
        ),
      );
      this.workers.push(worker);
    }
  }

  /**
   * Threads for an export of up to `rows` rows, or null to convert on the engine thread: the conversion script is
   * built (out/engine), the export is large enough, the database is a file, and threads are wanted.
   */
  static start(db: Db, rows: number): ConvertPool | null {
    if (db.memory || rows < THREADS_FROM_ROWS) return null;
    const threads = wantedThreads();
    const script = threads ? builtScriptIfPresent('convert-worker.cjs') : null;
    if (!script) return null;
    return new ConvertPool(script, { dbPath: db.name, nativeBinding: openOptionsOf(db).nativeBinding }, threads);
  }

  get threads(): number {
    return this.workers.length;
  }

  /** Hands each thread its job; what they send from now on (and anything that happened before) goes to `events`. */
  run(job: Omit<ConvertJob, 'groups'> & { tally: GroupTally | null }, events: PoolEvents): void {
    const { tally, ...rest } = job;
    const groups = tally ? [...tally.allFields()] : null;
    for (const worker of this.workers) worker.postMessage({ ...rest, groups } satisfies ConvertJob);
    this.events = events;
    for (const replay of this.early.splice(0)) replay(events);
  }

  private emit(deliver: (events: PoolEvents) => void): void {
    if (this.closing) return; // a terminated thread's exit, or a page nobody waits for
    if (this.events) deliver(this.events);
    else this.early.push(deliver);
  }

  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(this.workers.map((worker) => worker.terminate()));
    await Promise.all(this.exited);
  }
}
