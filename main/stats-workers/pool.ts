// A small pool of stats worker threads: jobs queue, each can be cancelled, failures come back as ApiErrors.
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Worker } from 'node:worker_threads';
import { ApiError } from '../../shared/api/define';
import type { StatsJobState } from '../../shared/api/stats';
import { startStatsThread } from './stats-thread';
import type { StatsJobOutput, StatsJobRequest, StatsWorkerData, WorkerFlushMessage, WorkerJobMessage, WorkerKeepMessage, WorkerPreloadMessage, WorkerReply } from './protocol';

export interface StatsPoolOptions {
  /** The database the workers read datasets from (read-only); null when every job sends its rows. */
  dbPath: string | null;
  size?: number;
  /** The bundled worker script (default: out/engine/stats-worker.cjs). */
  script?: string;
  /** A dataset's fold a worker made, to keep (rows/kept-folds.ts); absent: folds are not kept. */
  onKeep?: (fold: WorkerKeepMessage) => void;
}

export interface RunOptions {
  jobId?: string;
  onState?: (state: StatsJobState, message?: string) => void;
}

interface Job {
  id: string;
  request: StatsJobRequest;
  resolve(output: StatsJobOutput): void;
  reject(error: ApiError): void;
  onState?: RunOptions['onState'];
  slot?: Slot;
}

interface Slot {
  worker: Worker;
  job: Job | null;
  /** Datasets this worker read lately (it caches their rows): jobs on them prefer it. */
  recent: string[];
}

/** The datasets and files a job reads (a worker caches them: jobs on the same rows prefer it). */
function datasetIds(request: StatsJobRequest): string[] {
  return Object.values(request.sources)
    .flat()
    .flatMap((source) => ('dataset_id' in source ? [source.dataset_id] : 'path' in source ? [`file:${source.path}`] : []));
}

/** How long a closing pool waits for its workers' unsent folds (a fold of 100k rows takes some 50 ms to send). */
const FLUSH_KEEPS_MS = 1000;

/** Workers started before any pool existed (prestartStatsWorker), taken by the first pool that needs one. */
const prestarted: Worker[] = [];

/**
 * Starts a stats worker now, before the engine opens, and sends it `messages` (e.g. a file to read ahead),
 * so the thread's start and that read overlap the engine's own start. The first pool to need a worker takes it.
 * `data` is the worker's start data (a spare helper, for a job that folds two files).
 */
export function prestartStatsWorker(messages: WorkerPreloadMessage[], script?: string, data: StatsWorkerData = {}): void {
  const worker = startStatsThread({ workerData: data }, script);
  worker.unref();
  worker.on('error', () => undefined); // a pool that takes it listens; one never taken fails quietly
  // One that stopped before a pool took it is never handed out (a job sent to it would wait forever).
  worker.once('exit', () => {
    const at = prestarted.indexOf(worker);
    if (at >= 0) prestarted.splice(at, 1);
  });
  for (const message of messages) worker.postMessage(message, message.second ? [message.second.reply] : []);
  prestarted.push(worker);
}

export function defaultPoolSize(): number {
  const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  return Math.max(1, cores - 1);
}

export class StatsPool {
  private readonly size: number;
  private readonly slots = new Set<Slot>();
  private readonly queue: Job[] = [];
  private readonly jobs = new Map<string, Job>();
  private closed = false;
  /** Folds the workers send are written (until the pool has flushed them on close). */
  private keeping = true;

  constructor(private readonly options: StatsPoolOptions) {
    this.size = Math.max(1, options.size ?? defaultPoolSize());
  }

  /** Queue a job; the promise settles with its output or a typed error (`cancelled` when stopped). */
  run(request: StatsJobRequest, options: RunOptions = {}): { jobId: string; result: Promise<StatsJobOutput> } {
    if (this.closed) throw new ApiError('failed', 'the statistics pool is closed');
    const jobId = options.jobId ?? randomUUID();
    if (this.jobs.has(jobId)) throw new ApiError('conflict', `a statistics job with id "${jobId}" is already running`, 'job_id');
    const result = new Promise<StatsJobOutput>((resolve, reject) => {
      const job: Job = { id: jobId, request, resolve, reject, onState: options.onState };
      this.jobs.set(jobId, job);
      this.queue.push(job);
      job.onState?.('queued');
    });
    this.pump();
    return { jobId, result };
  }

  /** Stop a queued or running job (a running one's worker is terminated and replaced). */
  cancel(jobId: string): boolean {
    const job = this.jobs.get(jobId);
    if (!job) return false;
    const queued = this.queue.indexOf(job);
    if (queued >= 0) this.queue.splice(queued, 1);
    if (job.slot) this.retire(job.slot);
    this.finish(job, new ApiError('cancelled', `statistics job ${jobId} was cancelled`, 'job_id'));
    this.pump();
    return true;
  }

  /** Starts a worker now when none is (a long-lived host, once idle): the first job then finds its thread started. */
  warm(): void {
    if (this.closed || this.slots.size > 0) return;
    try {
      this.spawn(true);
    } catch {
      // the first job starts one, or says why it cannot
    }
  }

  get pending(): number {
    return this.jobs.size;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of [...this.jobs.values()]) this.finish(job, new ApiError('cancelled', 'the engine closed before the statistics job finished'));
    this.queue.length = 0;
    await this.flushKeeps();
    this.keeping = false;
    await Promise.all([...this.slots].map((slot) => slot.worker.terminate()));
    this.slots.clear();
  }

  /**
   * The folds idle workers still hold for keeping, written before they stop (a job's folds are sent a moment after
   * it, and `serve` or a command may close in that moment). Bounded: a worker that does not answer is not waited for.
   */
  private async flushKeeps(): Promise<void> {
    if (!this.options.onKeep) return;
    const idle = [...this.slots].filter((slot) => slot.job === null);
    const flushed = idle.map(
      (slot) =>
        new Promise<void>((resolve) => {
          const onMessage = (reply: WorkerReply | WorkerKeepMessage) => {
            if (reply.type !== 'keeps-flushed') return;
            slot.worker.off('message', onMessage);
            resolve();
          };
          slot.worker.on('message', onMessage);
          slot.worker.once('exit', () => resolve());
          slot.worker.ref(); // an idle worker is unref'd: the process would end before it answers
          const message: WorkerFlushMessage = { type: 'flush-keeps' };
          slot.worker.postMessage(message);
        }),
    );
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(flushed), new Promise((resolve) => (timer = setTimeout(resolve, FLUSH_KEEPS_MS)))]);
    clearTimeout(timer);
  }

  private finish(job: Job, outcome: StatsJobOutput | ApiError): void {
    if (!this.jobs.delete(job.id)) return;
    if (job.slot) {
      job.slot.job = null;
      if (this.slots.has(job.slot)) job.slot.worker.unref();
      job.slot = undefined;
    }
    if (outcome instanceof ApiError) {
      job.onState?.(outcome.code === 'cancelled' ? 'cancelled' : 'failed', outcome.message);
      job.reject(outcome);
    } else {
      job.onState?.('done');
      job.resolve(outcome);
    }
  }

  /** Keeping a fold is an optimisation: one that fails to be kept is folded again next time, never an error. */
  private keep(fold: WorkerKeepMessage): void {
    if (!this.keeping) return;
    try {
      this.options.onKeep?.(fold);
    } catch {
      // not kept
    }
  }

  private retire(slot: Slot): void {
    this.slots.delete(slot);
    void slot.worker.terminate();
  }

  /** `spareLater`: started ahead of any job (warm), it starts its spare helper a moment later. */
  private spawn(spareLater = false): Slot {
    const data: StatsWorkerData = { keepSpareHelper: true, spareLater, readsDatasets: this.options.dbPath !== null };
    const worker = (!this.options.script && prestarted.shift()) || startStatsThread({ workerData: data }, this.options.script);
    const slot: Slot = { worker, job: null, recent: [] };
    worker.on('message', (reply: WorkerReply | WorkerKeepMessage) => {
      if (reply.type === 'keep') {
        this.keep(reply);
        return;
      }
      if (reply.type === 'keeps-flushed') return; // flushKeeps listens for it
      const job = slot.job;
      if (!job || job.id !== reply.job_id) return;
      if (reply.type === 'result') this.finish(job, reply.output);
      else {
        const code = reply.error.kind === 'value' ? 'bad_input' : reply.error.kind === 'not_found' ? 'not_found' : 'failed';
        this.finish(job, new ApiError(code, reply.error.message));
      }
      this.pump();
    });
    const lost = (why: string) => {
      if (!this.slots.has(slot)) return;
      this.slots.delete(slot);
      if (slot.job) this.finish(slot.job, new ApiError('failed', `the statistics worker stopped: ${why}`));
      this.pump();
    };
    worker.on('error', (error) => lost(error.message));
    worker.on('exit', (code) => lost(`exit code ${code}`));
    worker.unref();
    this.slots.add(slot);
    return slot;
  }

  /** An idle worker that already holds the job's rows, else a fresh one, else a new one while there is room, else any idle one. */
  private pick(ids: string[]): Slot | 'spawn' | null {
    const idle = [...this.slots].filter((slot) => slot.job === null);
    const warm = idle.find((slot) => ids.some((id) => slot.recent.includes(id)));
    if (warm) return warm;
    const fresh = idle.find((slot) => slot.recent.length === 0);
    if (fresh) return fresh;
    if (this.slots.size < this.size) return 'spawn';
    return idle[0] ?? null;
  }

  private pump(): void {
    while (!this.closed && this.queue.length > 0) {
      const ids = datasetIds(this.queue[0].request);
      let slot = this.pick(ids);
      if (slot === null) return;
      if (slot === 'spawn') {
        try {
          slot = this.spawn();
        } catch (error) {
          const failure = new ApiError('failed', `could not start a statistics worker: ${(error as Error).message}`);
          for (const job of this.queue.splice(0)) this.finish(job, failure);
          return;
        }
      }
      const job = this.queue.shift() as Job;
      slot.recent = [...ids, ...slot.recent.filter((id) => !ids.includes(id))].slice(0, 3);
      slot.job = job;
      job.slot = slot;
      slot.worker.ref();
      job.onState?.('running');
      const message: WorkerJobMessage = { type: 'job', job_id: job.id, db_path: this.options.dbPath, request: job.request };
      slot.worker.postMessage(message);
    }
  }
}
