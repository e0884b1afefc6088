// Every query on the sync outbox, in one place. An item is written in the same transaction as the change it
// carries (the caller's), and leaves the 'queued'/'sending' states only when the platform confirmed it (done)
// or refused it for good (failed, with the platform's reason). Nothing is ever deleted here.
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/connection';

export type OutboxState = 'queued' | 'sending' | 'done' | 'failed';
/** Why a queued item waits for the person: a key to sign in again with, or billing. */
export type OutboxBlock = 'sign_in' | 'billing';

export interface OutboxItem {
  id: number;
  kind: string;
  datasetId: string | null;
  payload: Record<string, unknown>;
  progress: Record<string, unknown>;
  result: Record<string, unknown> | null;
  state: OutboxState;
  blocked: OutboxBlock | null;
  attempts: number;
  lastError: string | null;
  /** Tries in a row that failed the same way (0 after a success or a retry the person asked for). */
  failureStreak: number;
  nextTryAt: string | null;
  idempotencyKey: string;
  createdAt: string;
  updatedAt: string | null;
}

interface ItemRow {
  id: number;
  kind: string;
  dataset_id: string | null;
  payload_json: string;
  progress_json: string;
  result_json: string | null;
  state: OutboxState;
  blocked: OutboxBlock | null;
  attempts: number;
  last_error: string | null;
  failure_streak: number;
  next_try_at: string | null;
  idempotency_key: string;
  created_at: string;
  updated_at: string | null;
}

const COLUMNS = 'id, kind, dataset_id, payload_json, progress_json, result_json, state, blocked, attempts, last_error, failure_streak, next_try_at, idempotency_key, created_at, updated_at';

function toItem(row: ItemRow): OutboxItem {
  return {
    id: row.id,
    kind: row.kind,
    datasetId: row.dataset_id,
    payload: JSON.parse(row.payload_json) as Record<string, unknown>,
    progress: JSON.parse(row.progress_json) as Record<string, unknown>,
    result: row.result_json ? (JSON.parse(row.result_json) as Record<string, unknown>) : null,
    state: row.state,
    blocked: row.blocked,
    attempts: row.attempts,
    lastError: row.last_error,
    failureStreak: row.failure_streak,
    nextTryAt: row.next_try_at,
    idempotencyKey: row.idempotency_key,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const now = () => new Date().toISOString();

export interface NewOutboxItem {
  kind: string;
  datasetId?: string | null;
  payload: Record<string, unknown>;
}

/** Adds an item; call it inside the transaction that makes the change it carries. */
export function enqueueOutboxItem(db: Db, item: NewOutboxItem): OutboxItem {
  const info = db
    .prepare(`INSERT INTO sync_outbox (kind, dataset_id, payload_json, idempotency_key, state, created_at, updated_at) VALUES (?, ?, ?, ?, 'queued', ?, ?)`)
    .run(item.kind, item.datasetId ?? null, JSON.stringify(item.payload), randomUUID(), now(), now());
  return getOutboxItem(db, Number(info.lastInsertRowid))!;
}

export function getOutboxItem(db: Db, id: number): OutboxItem | undefined {
  const row = db.prepare(`SELECT ${COLUMNS} FROM sync_outbox WHERE id = ?`).get(id) as ItemRow | undefined;
  return row ? toItem(row) : undefined;
}

export function listOutbox(db: Db, limit = 500): OutboxItem[] {
  return (db.prepare(`SELECT ${COLUMNS} FROM sync_outbox ORDER BY id DESC LIMIT ?`).all(limit) as ItemRow[]).map(toItem);
}

export function outboxCounts(db: Db): Record<OutboxState, number> & { blocked: number } {
  const counts = { queued: 0, sending: 0, done: 0, failed: 0, blocked: 0 };
  for (const row of db.prepare('SELECT state, COUNT(*) AS n, SUM(blocked IS NOT NULL) AS b FROM sync_outbox GROUP BY state').all() as Array<{ state: OutboxState; n: number; b: number }>) {
    counts[row.state] = row.n;
    counts.blocked += row.b;
  }
  return counts;
}

/**
 * Items left 'sending' by a sender that is gone (the app quit, a crash, kill -9) go back to the queue.
 * `sending(pid, id)` says whether that process is still sending that item (for this process: an item in hand).
 */
export function requeueOrphans(db: Db, sending: (pid: number, id: number) => boolean): number {
  const orphans = db.prepare(`SELECT id, claimed_by FROM sync_outbox WHERE state = 'sending'`).all() as Array<{ id: number; claimed_by: number | null }>;
  const requeue = db.prepare(`UPDATE sync_outbox SET state = 'queued', claimed_by = NULL, updated_at = ? WHERE id = ? AND state = 'sending'`);
  let count = 0;
  for (const orphan of orphans) {
    if (orphan.claimed_by === null || !sending(orphan.claimed_by, orphan.id)) count += requeue.run(now(), orphan.id).changes;
  }
  return count;
}

/** The ids of queued items that are due (not blocked, next try reached), oldest first. */
export function dueOutboxIds(db: Db, ids?: number[]): number[] {
  const all = db
    .prepare(`SELECT id FROM sync_outbox WHERE state = 'queued' AND blocked IS NULL AND (next_try_at IS NULL OR next_try_at <= ?) ORDER BY id`)
    .pluck()
    .all(now()) as number[];
  return ids ? all.filter((id) => ids.includes(id)) : all;
}

/** Takes a queued item for this process; false when another one took it first. */
export function claimOutboxItem(db: Db, id: number): boolean {
  return (
    db.prepare(`UPDATE sync_outbox SET state = 'sending', claimed_by = ?, attempts = attempts + 1, updated_at = ? WHERE id = ? AND state = 'queued' AND blocked IS NULL`).run(process.pid, now(), id)
      .changes === 1
  );
}

export function saveOutboxProgress(db: Db, id: number, progress: Record<string, unknown>): void {
  db.prepare('UPDATE sync_outbox SET progress_json = ?, updated_at = ? WHERE id = ?').run(JSON.stringify(progress), now(), id);
}

export function markOutboxDone(db: Db, id: number, result: Record<string, unknown>): void {
  db.prepare(
    `UPDATE sync_outbox SET state = 'done', result_json = ?, last_error = NULL, blocked = NULL, claimed_by = NULL, next_try_at = NULL, failure_streak = 0, failure_sig = NULL, updated_at = ? WHERE id = ?`,
  ).run(JSON.stringify(result), now(), id);
}

/** Waits for the person (sign in again, billing): queued, not due until they act; the streak is left as it is. */
export function markOutboxBlocked(db: Db, id: number, error: string, blocked: OutboxBlock): void {
  db.prepare(`UPDATE sync_outbox SET state = 'queued', last_error = ?, next_try_at = NULL, blocked = ?, claimed_by = NULL, updated_at = ? WHERE id = ?`).run(error, blocked, now(), id);
}

/**
 * A failed try: `signature` names the way it failed. Returns the tries in a row that failed that way, this one
 * included, so the caller can stop an item that fails the same way again and again.
 */
export function countOutboxFailure(db: Db, id: number, signature: string): number {
  const row = db
    .prepare(`UPDATE sync_outbox SET failure_streak = CASE WHEN failure_sig = ? THEN failure_streak + 1 ELSE 1 END, failure_sig = ? WHERE id = ? RETURNING failure_streak`)
    .get(signature, signature, id) as { failure_streak: number } | undefined;
  return row?.failure_streak ?? 0;
}

/** Back to the queue with the error, to be tried again at `nextTryAt` (or when the person asks). */
export function markOutboxRetry(db: Db, id: number, error: string, nextTryAt: string): void {
  db.prepare(`UPDATE sync_outbox SET state = 'queued', last_error = ?, next_try_at = ?, blocked = NULL, claimed_by = NULL, updated_at = ? WHERE id = ?`).run(error, nextTryAt, now(), id);
}

export function markOutboxFailed(db: Db, id: number, error: string): void {
  db.prepare(`UPDATE sync_outbox SET state = 'failed', last_error = ?, claimed_by = NULL, next_try_at = NULL, updated_at = ? WHERE id = ?`).run(error, now(), id);
}

/**
 * Sync now: waiting items are due again and blocks lift; with `retryFailed`, failed ones are queued again too, and
 * so are the items named in `retryIds` (whatever stopped them). A retry the person asks for starts a new streak.
 */
export function releaseOutbox(db: Db, retryFailed: boolean, retryIds: readonly number[] = []): void {
  db.prepare(`UPDATE sync_outbox SET next_try_at = NULL, blocked = NULL, updated_at = ? WHERE state = 'queued'`).run(now());
  const requeue = `UPDATE sync_outbox SET state = 'queued', next_try_at = NULL, blocked = NULL, failure_streak = 0, failure_sig = NULL, updated_at = ?`;
  if (retryFailed) db.prepare(`${requeue} WHERE state = 'failed'`).run(now());
  const one = db.prepare(`${requeue} WHERE id = ? AND state IN ('queued', 'failed')`);
  for (const id of retryIds) one.run(now(), id);
}

/** When the next queued item that waits on a back-off (not on the person) is due, or null when none waits. */
export function nextOutboxTry(db: Db): string | null {
  return (db.prepare(`SELECT MIN(next_try_at) FROM sync_outbox WHERE state = 'queued' AND blocked IS NULL AND next_try_at IS NOT NULL`).pluck().get() as string | null) ?? null;
}
