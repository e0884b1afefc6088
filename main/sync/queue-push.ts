// "Push" as the person asks for it: check the dataset and the options, run the publish gate and the holdout
// split locally (nothing is sent yet; a refused set never is), then write the outbox item in the same
// transaction as the dataset's record of the push.
import { ApiError } from '../../shared/api/define';
import type { Db } from '../db/connection';
import { findDataset, getDatasetMeta, setDatasetMeta } from '../db/repos/datasets';
import { enqueueOutboxItem, type OutboxItem } from '../rows/outbox';
import { gateReportOf, planPush, type PushPlan } from './push-plan';
import type { PublishGateReport } from '../../shared/platform/index';
import type { HackScanReport } from '../../shared/stats/hack-scan';
import type { PushPayload } from './push-dataset';

export interface PushRequest {
  dataset_id: string;
  name: string;
  purpose?: PushPayload['purpose'];
  mode?: PushPayload['mode'];
  agent?: string;
  description?: string;
  parent?: string;
  holdout?: number;
  gate: boolean;
  /** Refuse a reward_hack (the gate's strict_hacks): `hack_scan` is the scan of the dataset's rows, made before. */
  strict_hacks?: boolean;
  hack_scan?: HackScanReport | null;
}

export interface QueuedPush {
  item: OutboxItem;
  rows: number;
  holdout_rows: number;
  holdout_tasks: number;
  /** The gate's report; for a push sent at once, read it after the send (its upload makes it). */
  readonly gate: PublishGateReport | null;
}

/** Plans made when a push was queued, for the send that follows at once in this process (else made again). */
export const plannedPushes = new Map<number, PushPlan>();

export function queuePush(db: Db, request: PushRequest, keepPlan = false): QueuedPush {
  const dataset = findDataset(db, request.dataset_id);
  if (!dataset) throw new ApiError('not_found', `no dataset or run with id "${request.dataset_id}" (see \`while-desk datasets\`)`, 'dataset_id');
  if (['importing', 'grading', 'running'].includes(dataset.status)) {
    throw new ApiError('conflict', `dataset ${dataset.id} is still ${dataset.status}; push it once it is finished`, 'dataset_id');
  }
  if (dataset.rows === 0) throw new ApiError('bad_input', `dataset ${dataset.id} has no rows to push`, 'dataset_id');
  const fraction = request.holdout;
  if (fraction !== undefined && !(fraction > 0 && fraction < 1)) throw new ApiError('bad_input', `holdout must be a fraction between 0 and 1 (got ${fraction})`, 'holdout');

  if (request.strict_hacks && !request.gate) throw new ApiError('bad_input', 'strict hacks is a rule of the publish gate: push with the gate on to use it', 'strict_hacks');
  const plan = planPush(db, dataset.id, { gate: request.gate, mode: request.mode, holdout: fraction, rows: dataset.rows, strictHacks: request.strict_hacks, hackScan: request.hack_scan });
  const refusal = plan.gate?.refusal;
  if (refusal) throw new ApiError('failed', `the publish gate refused ${dataset.id}: ${refusal} (push with --no-gate to send it anyway)`, 'gate', gateReportOf(db, dataset.id, plan.gate!));
  if (fraction && plan.holdoutRows === plan.rows) throw new ApiError('bad_input', `a holdout of ${fraction} leaves no train rows in ${dataset.id}; use a smaller fraction`, 'holdout');

  const payload: PushPayload = {
    dataset_id: dataset.id,
    name: request.name,
    ...(request.purpose ? { purpose: request.purpose } : {}),
    ...(request.mode ? { mode: request.mode } : {}),
    ...(request.agent ? { agent: request.agent } : {}),
    ...(request.description ? { description: request.description } : {}),
    ...(request.parent ? { parent: request.parent } : {}),
    ...(fraction ? { holdout: fraction, holdout_tasks: plan.holdoutTasks } : {}),
    gate: request.gate,
    // Sent now, the upload makes the report as it reads the rows; queued for later, it is made here.
    gate_report: plan.gate && !keepPlan ? gateReportOf(db, dataset.id, plan.gate) : null,
  };
  const item = db.transaction(() => {
    const queued = enqueueOutboxItem(db, { kind: 'dataset.push', datasetId: dataset.id, payload: payload as unknown as Record<string, unknown> });
    const meta = getDatasetMeta(db, dataset.id);
    setDatasetMeta(db, dataset.id, { ...meta, pushes: [...(Array.isArray(meta.pushes) ? meta.pushes : []), { outbox_id: queued.id, name: request.name, at: queued.createdAt }] });
    return queued;
  })();
  if (keepPlan) plannedPushes.set(item.id, plan);
  const queued = { item, rows: plan.rows - plan.holdoutRows, holdout_rows: plan.holdoutRows, holdout_tasks: plan.holdoutTasks };
  const gatePlan = plan.gate;
  // The report is read when it is wanted: after a send at once, the one its upload made (else made then).
  return Object.defineProperty(queued, 'gate', { enumerable: true, get: () => (gatePlan ? gateReportOf(db, dataset.id, gatePlan) : null) }) as QueuedPush;
}
