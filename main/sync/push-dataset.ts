// One dataset push (platform-api §3.1), as steps an outbox item can resume: create, upload the JSONL to the
// presigned URL (spooled from SQLite, its length stated), finalize; then the holdout the same way with `parent` =
// the train set.
// Each step's outcome is saved before the next begins, so a retry or a restart after kill -9 repeats only
// what the platform never confirmed, and never creates a second dataset (see `createOnce`).
import type { PlatformClient } from './client';
import type { Db } from '../db/connection';
import { countRows } from '../rows/index';
import { PlatformError } from './errors';
import { jsonlStream, type RowPick } from './jsonl-stream';
import { spoolUpload, type Spool } from './upload-spool';
import { RowFacts } from './gate-input';
import { gateReportOf, HOLDOUT, planPush, TRAIN, type PushPlan } from './push-plan';
import type { PublishGateReport } from '../../shared/platform/index';
import { withRetry } from './retry';

export const PURPOSES = ['train', 'holdout', 'eval'] as const;
export const MODES = ['explore', 'sft', 'rl', 'adaptive'] as const;

export interface PushPayload {
  dataset_id: string;
  name: string;
  purpose?: (typeof PURPOSES)[number];
  mode?: (typeof MODES)[number];
  agent?: string;
  description?: string;
  parent?: string;
  /** Fraction of tasks held out (0 < f < 1), pushed as `<name>-holdout`. */
  holdout?: number;
  /** Run the publish gate (stamps calibration on the rows sent); its report when made at queueing (else the send makes it). */
  gate?: boolean;
  gate_report?: PublishGateReport | null;
  holdout_tasks?: number;
}

interface PartProgress {
  /** A create was sent whose answer may never have arrived. */
  create_sent?: boolean;
  remote_id?: string;
  upload_url?: string;
  uploaded?: { rows: number; bytes: number; ms: number };
  final?: Record<string, unknown>;
}

export type PushProgress = Partial<Record<Side, PartProgress>>;

export interface PushJob {
  db: Db;
  client: PlatformClient;
  payload: PushPayload;
  idempotencyKey: string;
  progress: PushProgress;
  /** Saves the progress durably (the outbox row) before the next step is taken. */
  save(progress: PushProgress): void;
  /** The plan made when the push was queued, when this process still has it (else it is made again). */
  plan?: PushPlan;
}

export type Side = 'train' | 'holdout';

function createBody(payload: PushPayload, side: Side, parentId?: string): Record<string, unknown> {
  const holdout = side === 'holdout';
  const body: Record<string, unknown> = { name: holdout ? `${payload.name}-holdout` : payload.name };
  const purpose = holdout ? 'holdout' : payload.purpose;
  if (purpose) body.purpose = purpose;
  if (payload.mode) body.mode = payload.mode;
  if (payload.agent) body.agent = payload.agent;
  if (payload.description) body.description = payload.description;
  const parent = holdout ? parentId : payload.parent;
  if (parent) body.parentDatasetId = parent;
  return body;
}

/**
 * `POST /datasets` always makes a new dataset (§4.7), so a create whose answer was lost (timeout, reset, kill -9)
 * must not simply be sent again: the unfinalized set it may have made, under this name, is removed first. The
 * request also carries an Idempotency-Key, which a platform that honours it uses to answer with the same set.
 */
async function createOnce(job: PushJob, side: Side, part: PartProgress, body: Record<string, unknown>): Promise<void> {
  // Retried here as a whole, never by the client alone: each new try first clears what a lost one made.
  await withRetry(async () => {
    if (part.create_sent) await dropUnfinished(job, String(body.name));
    part.create_sent = true;
    job.save(job.progress);
    const reply = await job.client.call<Record<string, unknown>>('data', 'POST', '/datasets', { json: body, headers: { 'idempotency-key': `${job.idempotencyKey}:${side}` }, retry: false });
    if (typeof reply?.datasetId !== 'string' || typeof reply?.uploadUrl !== 'string') {
      throw new PlatformError('http', 422, `POST /datasets: the reply has no datasetId and uploadUrl (${JSON.stringify(reply).slice(0, 200)})`);
    }
    part.remote_id = reply.datasetId;
    part.upload_url = reply.uploadUrl;
    job.save(job.progress);
  }, job.client.retry);
}

/** Removes the account's unfinalized datasets of this name: what a create whose answer was lost left behind. */
async function dropUnfinished(job: PushJob, name: string): Promise<void> {
  const listed = await job.client.call<{ datasets?: Array<Record<string, unknown>> }>('data', 'GET', '/datasets');
  for (const entry of listed?.datasets ?? []) {
    if (entry.name === name && entry.status !== 'ready' && typeof entry.datasetId === 'string') {
      await job.client.call('data', 'DELETE', `/datasets/${encodeURIComponent(entry.datasetId)}`);
    }
  }
}

/**
 * The part's rows as JSONL, spooled (upload-spool.ts: every PUT states its Content-Length). The train side reads
 * every row, so it folds the gate's row facts and makes the report when none is made yet (a try that read every
 * row made it, whatever became of its bytes).
 */
function spoolPart(job: PushJob, keep: RowPick): Promise<Spool> {
  const gate = keep.plan.gate;
  const fold = gate && !gate.report && keep.side === TRAIN;
  const onFacts = (facts: RowFacts) => void gateReportOf(job.db, job.payload.dataset_id, gate!, facts);
  const pick = fold ? { ...keep, facts: new RowFacts(gate.part.tasks, gate.student), onFacts } : keep;
  return spoolUpload(jsonlStream(job.db, job.payload.dataset_id, pick));
}

async function upload(job: PushJob, part: PartProgress, spool: Spool, started: number): Promise<void> {
  try {
    await job.client.upload(part.upload_url!, spool.writeTo, 'application/jsonl', spool.bytes);
  } catch (error) {
    // Storage that will take the request no better next time (411, 501, 400 ...): say that it was the storage.
    const refused = error instanceof PlatformError && error.kind === 'http' && !error.retryable && error.status !== 403 && error.status !== 404;
    if (!refused) throw error;
    const size = `${(spool.bytes / 1e6).toFixed(1)} MB, ${spool.rows} rows`;
    throw new PlatformError('http', error.status, `the storage host refused the upload (${size}): ${error.message}`, error.reason);
  }
  part.uploaded = { rows: spool.rows, bytes: spool.bytes, ms: Math.round(performance.now() - started) };
  job.save(job.progress);
}

async function finalize(job: PushJob, part: PartProgress): Promise<void> {
  const entry = await job.client.call<Record<string, unknown>>('data', 'POST', `/datasets/${encodeURIComponent(part.remote_id!)}/finalize`);
  const sent = part.uploaded!.rows;
  if (typeof entry?.rows === 'number' && entry.rows !== sent) {
    // The platform holds fewer (or more) rows than were sent: send the file again rather than keep a short set.
    part.uploaded = undefined;
    job.save(job.progress);
    throw new PlatformError('network', 0, `POST /datasets/${part.remote_id}/finalize: the platform counted ${entry.rows} rows where ${sent} were sent; uploading again`);
  }
  part.final = { ...entry, datasetId: entry?.datasetId ?? part.remote_id };
  job.save(job.progress);
}

async function pushPart(job: PushJob, side: Side, parentId?: string): Promise<PartProgress> {
  const part = (job.progress[side] ??= {});
  const plan = (job.plan ??= planFor(job.db, job.payload));
  const keep: RowPick = { plan, side: side === 'holdout' ? HOLDOUT : TRAIN };
  if (!part.remote_id) await createOnce(job, side, part, createBody(job.payload, side, parentId));
  if (!part.uploaded) {
    const started = performance.now();
    const spool = await spoolPart(job, keep);
    try {
      await upload(job, part, spool, started);
    } catch (error) {
      // A presigned URL refused (403) or gone (404) has expired, e.g. when a sync cut off resumes hours later:
      // start this part again; the unfinished dataset it made is removed first (create_sent stays set).
      if (!(error instanceof PlatformError) || (error.status !== 403 && error.status !== 404)) throw error;
      part.remote_id = undefined;
      part.upload_url = undefined;
      job.save(job.progress);
      await createOnce(job, side, part, createBody(job.payload, side, parentId));
      await upload(job, part, spool, started);
    } finally {
      spool.dispose();
    }
  }
  if (!part.final) await finalize(job, part);
  return part;
}

export function planFor(db: Db, payload: PushPayload): PushPlan {
  return planPush(db, payload.dataset_id, { gate: Boolean(payload.gate), mode: payload.mode, holdout: payload.holdout, rows: countRows(db, payload.dataset_id) });
}

/** Runs (or resumes) the push; the result is the finalized entry, plus the holdout's and the gate's report. */
export async function runDatasetPush(job: PushJob): Promise<Record<string, unknown>> {
  const train = await pushPart(job, 'train');
  const result: Record<string, unknown> = { ...train.final };
  let uploadMs = train.uploaded?.ms ?? 0;
  if (job.payload.holdout) {
    const holdout = await pushPart(job, 'holdout', train.remote_id);
    result.holdout = holdout.final;
    result.holdout_tasks = job.payload.holdout_tasks ?? null;
    uploadMs += holdout.uploaded?.ms ?? 0;
  }
  result.upload_ms = uploadMs; // the last successful upload of each part
  // The report made when the push was queued, else the one this send made (or makes now, when no upload read the rows).
  const gate = job.payload.gate ? (job.payload.gate_report ?? (job.plan?.gate ? gateReportOf(job.db, job.payload.dataset_id, job.plan.gate) : null)) : null;
  if (gate) result.gate = gate;
  return result;
}
