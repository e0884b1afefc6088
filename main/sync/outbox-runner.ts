// Drains the outbox: each due item is claimed, run by its kind's executor, and marked done, queued again (with
// the error and a backoff time), blocked (sign in again, billing) or failed (the platform's reason, or the same
// retryable failure too many times in a row). Items left 'sending' by a process that died are queued again first.
// A few items go at once.
import type { Db } from '../db/connection';
import { processAlive } from '../engine/process-alive';
import {
  claimOutboxItem,
  countOutboxFailure,
  dueOutboxIds,
  getOutboxItem,
  markOutboxBlocked,
  markOutboxDone,
  markOutboxFailed,
  markOutboxRetry,
  nextOutboxTry,
  requeueOrphans,
  saveOutboxProgress,
  type OutboxItem,
} from '../rows/outbox';
import type { PlatformClient } from './client';
import { explain, PlatformError } from './errors';
import { backoffMs } from './retry';
import { runDatasetPush, type PushPayload, type PushProgress } from './push-dataset';
import { plannedPushes } from './queue-push';
import { runResults, type ResultsPayload } from './results';

export interface ItemContext {
  db: Db;
  client: PlatformClient;
  item: OutboxItem;
  save(progress: Record<string, unknown>): void;
}

export type Executor = (job: ItemContext) => Promise<Record<string, unknown>>;

const executors: Record<string, Executor> = {
  'dataset.push': (job) =>
    runDatasetPush({
      db: job.db,
      client: job.client,
      payload: job.item.payload as unknown as PushPayload,
      idempotencyKey: job.item.idempotencyKey,
      progress: job.item.progress as PushProgress,
      save: (progress) => job.save(progress as Record<string, unknown>),
      plan: plannedPushes.get(job.item.id),
    }).finally(() => plannedPushes.delete(job.item.id)),
  'run.results': (job) => runResults(job.db, job.client, job.item.payload as unknown as ResultsPayload),
};

export function registerExecutor(kind: string, executor: Executor): void {
  executors[kind] = executor;
}

export interface DrainResult {
  attempted: number;
  done: number;
  failed: number;
  waiting: number;
  /** Set when the drain stopped for the person: 'sign_in' or 'billing', with the message. */
  blocked: { reason: 'sign_in' | 'billing'; message: string } | null;
}

export interface DrainOptions {
  /** Only these items (a push sends its own item now). */
  ids?: number[];
  concurrency?: number;
  onChange?: (item: OutboxItem) => void;
}

/**
 * An item whose tries fail the same way this many times in a row stops retrying (it turns failed, and says so):
 * a platform or a storage host that refuses a request for the same reason every time is not having a bad minute.
 * The person's retry (`sync --retry ID`, Retry failed) starts it again.
 */
export const STOP_AFTER_SAME_FAILURES = 5;

/** The way a try failed: its message with the numbers taken out (ports, ids, sizes and seconds vary between tries). */
export function failureSignature(message: string): string {
  return message.replace(/\d+/g, '#');
}

/** The wait before an item that failed for a retryable reason goes again: 2^attempts x the base, at most the cap. */
function nextTry(attempts: number, policy: PlatformClient['outboxBackoff']): string {
  return new Date(Date.now() + backoffMs(attempts, { tries: 0, ...policy }, () => 0.5 + Math.random() / 2)).toISOString();
}

/** Items this process is sending now, as `database:id` (two drains may overlap: automatic sync and Sync now). */
const inHand = new Set<string>();

export async function drainOutbox(db: Db, client: PlatformClient, options: DrainOptions = {}): Promise<DrainResult> {
  requeueOrphans(db, (pid, id) => (pid === process.pid ? inHand.has(`${db.name}:${id}`) : processAlive(pid)));
  const queue = dueOutboxIds(db, options.ids);
  const result: DrainResult = { attempted: 0, done: 0, failed: 0, waiting: 0, blocked: null };
  const changed = (id: number) => {
    const item = getOutboxItem(db, id);
    if (item) options.onChange?.(item);
  };

  async function runOne(id: number): Promise<void> {
    if (!claimOutboxItem(db, id)) return;
    inHand.add(`${db.name}:${id}`);
    try {
      await sendClaimed(id);
    } finally {
      inHand.delete(`${db.name}:${id}`);
    }
    changed(id);
  }

  async function sendClaimed(id: number): Promise<void> {
    result.attempted++;
    changed(id);
    const item = getOutboxItem(db, id)!;
    const executor = executors[item.kind];
    try {
      if (!executor) throw new Error(`no sender for outbox items of kind "${item.kind}"`);
      const outcome = await executor({ db, client, item, save: (progress) => saveOutboxProgress(db, id, progress) });
      markOutboxDone(db, id, outcome);
      result.done++;
    } catch (error) {
      const message = explain(error);
      if (error instanceof PlatformError && (error.needsSignIn || error.billingRequired)) {
        const reason = error.needsSignIn ? 'sign_in' : 'billing';
        markOutboxBlocked(db, id, message, reason);
        result.blocked ??= { reason, message };
        result.waiting++;
      } else if (error instanceof PlatformError && error.retryable && countOutboxFailure(db, id, failureSignature(message)) < STOP_AFTER_SAME_FAILURES) {
        markOutboxRetry(db, id, message, nextTry(item.attempts, client.outboxBackoff));
        result.waiting++;
      } else {
        const stopped = error instanceof PlatformError && error.retryable;
        markOutboxFailed(db, id, stopped ? `stopped retrying after ${STOP_AFTER_SAME_FAILURES} tries in a row that failed the same way: ${message}` : message);
        result.failed++;
      }
    }
  }

  const workers = Array.from({ length: Math.max(1, options.concurrency ?? 4) }, async () => {
    while (queue.length > 0 && !result.blocked) await runOne(queue.shift()!);
  });
  await Promise.all(workers);
  return result;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Drains, then, while items wait on a back-off that comes due within `waitMs`, waits for it and drains again
 * (`while-desk sync --wait S`). Stops early when the person must act (sign in, billing). Counts add up over the
 * passes; `waiting` and `blocked` are the last pass's.
 */
export async function drainWithin(db: Db, client: PlatformClient, waitMs: number, options: DrainOptions = {}): Promise<DrainResult> {
  const deadline = Date.now() + waitMs;
  const total: DrainResult = { attempted: 0, done: 0, failed: 0, waiting: 0, blocked: null };
  for (;;) {
    const pass = await drainOutbox(db, client, options);
    total.attempted += pass.attempted;
    total.done += pass.done;
    total.failed += pass.failed;
    total.waiting = pass.waiting;
    total.blocked = pass.blocked;
    const next = nextOutboxTry(db);
    if (pass.blocked || next === null || Date.parse(next) > deadline) return total;
    await sleep(Math.max(0, Date.parse(next) - Date.now()));
  }
}
