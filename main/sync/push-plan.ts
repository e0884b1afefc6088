// What a push sends, worked out locally before anything leaves: the publish gate's refusal (shared/platform
// gateRefusal, on the task tally gate-input.ts reads from the rows table) and the holdout side of every row
// (holdoutBucket, platform-api §3.3). The rows themselves are not held: the plan keeps the task tally the stamps
// are computed from, and the upload stamps each row as it streams it (jsonl-stream.ts). The gate's report also
// reads a few fields of every row; the upload folds them as it goes (RowFacts), so a push that is sent at once
// reads each row once, and `gateReportOf` scans the rows for them only when no upload did.
import type { Db } from '../db/connection';
import { gateRefusal, gateReport, holdoutBucket, policyRef, stampRow, type PolicyRef, type PublishGateReport } from '../../shared/platform/index';
import { isObject, taskKey } from '../../shared/stats/keys';
import { groupLabel } from '../../shared/stats/readers';
import { taskCountOf } from '../../shared/stats/task-tally';
import { storedRowJson } from '../rows/gate-columns';
import type { HackScanReport } from '../../shared/stats/hack-scan';
import { gateGroups, gateInputOf, scanRowFacts, type GateGroups, type RowFacts } from './gate-input';
import { withReader } from './reader';

export const TRAIN = 0;
export const HOLDOUT = 1;

export interface GatePlan {
  part: GateGroups;
  mode: string | null;
  /** Decided before anything leaves: the task tally is all it reads. */
  refusal: string | null;
  student: PolicyRef;
  /** The hack scan of the rows, when the push asked for one (strict_hacks or endorsed), and whether it may refuse. */
  hackScan: HackScanReport | null;
  strictHacks: boolean;
  /** The report, once made (gateReportOf): from the facts an upload folded, else by a scan. */
  report: PublishGateReport | null;
}

export interface PushPlan {
  rows: number;
  /** Per row (stored order): TRAIN or HOLDOUT; null when every row is train (no split). */
  side: Uint8Array | null;
  holdoutRows: number;
  holdoutTasks: number;
  gate: GatePlan | null;
}

export interface PlanOptions {
  gate: boolean;
  mode?: string;
  holdout?: number;
  rows: number;
  strictHacks?: boolean;
  hackScan?: HackScanReport | null;
}

export function planPush(db: Db, datasetId: string, options: PlanOptions): PushPlan {
  // Nothing to read before the upload streams the rows.
  if (!options.gate && !options.holdout) return { rows: options.rows, side: null, holdoutRows: 0, holdoutTasks: 0, gate: null };
  // Scans read on a connection of their own: its small page cache keeps the writer's for the app.
  return withReader(db, (reader) => planOn(reader, datasetId, options));
}

function planOn(db: Db, datasetId: string, options: PlanOptions): PushPlan {
  const fraction = options.holdout;
  const split = fraction ? holdoutSides(db, datasetId, fraction) : { side: null, holdoutRows: 0, holdoutTasks: 0 };
  let gate: GatePlan | null = null;
  if (options.gate) {
    const part = gateGroups(db, datasetId);
    const mode = options.mode ?? null;
    // A push names no policy: each stamp's student is the row's own policy_version (or model_version).
    const hacks = { strict_hacks: options.strictHacks ?? false, hack_scan: options.hackScan ?? null };
    gate = { part, mode, refusal: gateRefusal(part, { mode, ...hacks }), student: policyRef(undefined, null), hackScan: hacks.hack_scan, strictHacks: hacks.strict_hacks, report: null };
  }
  return { rows: split.side ? split.side.length : options.rows, ...split, gate };
}

/** The gate's report: made from `facts` (an upload's fold over every row), else from a scan of the rows. */
export function gateReportOf(db: Db, datasetId: string, gate: GatePlan, facts?: RowFacts): PublishGateReport {
  if (gate.report && !facts) return gate.report;
  const input = gateInputOf(gate.part, facts ?? withReader(db, (reader) => scanRowFacts(reader, datasetId, gate.part.tasks, gate.student)));
  return (gate.report = gateReport(input, { mode: gate.mode, strict: false, strict_hacks: gate.strictHacks, hack_scan: gate.hackScan }));
}

/** The side of every row: a task's rows all fall on the side its key hashes to. */
function holdoutSides(db: Db, datasetId: string, fraction: number): Pick<PushPlan, 'side' | 'holdoutRows' | 'holdoutTasks'> {
  const sides: number[] = [];
  const holdoutTasks = new Set<string>();
  const bucketOf = new Map<string, number>(); // one hash per task, not per row
  for (const json of storedRowJson(db, datasetId)) {
    const row = JSON.parse(json) as unknown;
    const key = isObject(row) ? taskKey(row) : '';
    let bucket = bucketOf.get(key);
    if (bucket === undefined) bucketOf.set(key, (bucket = holdoutBucket(row)));
    const side = bucket < fraction ? HOLDOUT : TRAIN;
    sides.push(side);
    if (side === HOLDOUT) holdoutTasks.add(key);
  }
  return { side: Uint8Array.from(sides), holdoutRows: sides.reduce((sum, value) => sum + value, 0), holdoutTasks: holdoutTasks.size };
}

/**
 * The calibration stamp the gate writes on a row (platform-api §3.5), as JSON, or undefined when it gets none; one
 * stamper per stream. A task's rows usually come together and share a stamp, so the last one is kept: a row with
 * the same task, label presence and version strings (and no stamp of its own) gets it without computing it again.
 */
export function rowStamper(gate: GatePlan): (row: unknown) => string | undefined {
  let lastKey: string | null = null;
  let lastJson: string | undefined;
  return (row) => {
    if (!isObject(row)) return undefined;
    const task = taskKey(row);
    const { policy_version: pv, model_version: mv } = row;
    const plain = row.calibration === undefined && (pv === undefined || typeof pv === 'string') && (mv === undefined || typeof mv === 'string');
    const key = plain ? `${groupLabel(row) === null ? 0 : 1}\u0000${pv ?? '\u0001'}\u0000${mv ?? '\u0001'}\u0000${task}` : null;
    if (key !== null && key === lastKey) return lastJson;
    const stamped = stampRow(row, taskCountOf(gate.part.tasks, task), gate.student);
    lastKey = key;
    lastJson = stamped ? JSON.stringify(stamped.stamp) : undefined;
    return lastJson;
  };
}

/** The row's JSON with its calibration stamp written in (replacing one it carried), as the gate stamps it. */
export function withStamp(json: string, stampJson: string | undefined): string {
  if (stampJson === undefined) return json;
  if (json.includes('"calibration"')) return JSON.stringify({ ...(JSON.parse(json) as Record<string, unknown>), calibration: JSON.parse(stampJson) as unknown });
  const body = json.trimEnd();
  return body === '{}' ? `{"calibration":${stampJson}}` : `${body.slice(0, -1)},"calibration":${stampJson}}`;
}
