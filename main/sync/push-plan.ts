// What a push sends, worked out locally in one pass over the rows and before anything leaves: the publish gate
// (shared/platform publishGate: calibration stamps, the report, the refusal) and the holdout side of every row
// (holdoutBucket, platform-api §3.3). The gate sees a light copy of each row (only the fields it reads), and
// the plan keeps per row just a stamp number and a side, so a 100k-row set is never held whole.
import type { Db } from '../db/connection';
import { iterateRowJson } from '../rows/index';
import { holdoutBucket, publishGate, type PublishGateReport } from '../../shared/platform/index';
import { isObject, pyTruthy, taskKey } from '../../shared/stats/keys';

export const TRAIN = 0;
export const HOLDOUT = 1;

export interface PushPlan {
  rows: number;
  /** Per row (stored order): TRAIN or HOLDOUT; null when every row is train (no split). */
  side: Uint8Array | null;
  holdoutRows: number;
  holdoutTasks: number;
  /** Per row: an index into `stampJson`, or -1 for no stamp; null without the gate. */
  stamp: Int32Array | null;
  stampJson: string[];
  gate: PublishGateReport | null;
}

/** The fields the gate reads (calibration, pass@k, group signal): a light copy of the row. */
function gateView(row: Record<string, unknown>): Record<string, unknown> {
  const view: Record<string, unknown> = { scenario_id: row.scenario_id, reward: row.reward };
  if (!pyTruthy(row.scenario_id)) Object.assign(view, { task_id: row.task_id, prompt: pyTruthy(row.task_id) ? undefined : row.prompt });
  for (const key of ['qwen_reward', 'policy_version', 'model_version', 'calibration', 'rollout_index'] as const) if (row[key] !== undefined) view[key] = row[key];
  const trust = isObject(row.judge_meta) ? row.judge_meta.trust : undefined;
  if (trust) view.judge_meta = { trust };
  return view;
}

export function planPush(db: Db, datasetId: string, options: { gate: boolean; mode?: string; holdout?: number; rows: number }): PushPlan {
  const fraction = options.holdout;
  // Neither gate nor split: nothing to read before the upload streams the rows.
  if (!options.gate && !fraction) return { rows: options.rows, side: null, holdoutRows: 0, holdoutTasks: 0, stamp: null, stampJson: [], gate: null };
  const views: Record<string, unknown>[] = [];
  const sides: number[] = [];
  const holdoutTasks = new Set<string>();
  for (const json of iterateRowJson(db, datasetId)) {
    const row = JSON.parse(json) as Record<string, unknown>;
    const side = fraction && holdoutBucket(row) < fraction ? HOLDOUT : TRAIN;
    sides.push(side);
    if (side === HOLDOUT) holdoutTasks.add(taskKey(row));
    if (options.gate) views.push(gateView(row));
  }
  let stamp: Int32Array | null = null;
  const stampJson: string[] = [];
  let gate: PublishGateReport | null = null;
  if (options.gate) {
    const result = publishGate(views, { mode: options.mode ?? null, strict: false });
    views.length = 0;
    gate = result.report;
    stamp = new Int32Array(sides.length).fill(-1);
    const known = new Map<string, number>();
    result.stamps.forEach((value, i) => {
      if (!value) return;
      const text = JSON.stringify(value);
      let index = known.get(text);
      if (index === undefined) known.set(text, (index = stampJson.push(text) - 1));
      stamp![i] = index;
    });
  }
  const side = fraction ? Uint8Array.from(sides) : null;
  const holdoutRows = side ? side.reduce((sum, value) => sum + value, 0) : 0;
  return { rows: sides.length, side, holdoutRows, holdoutTasks: holdoutTasks.size, stamp, stampJson, gate };
}

/** The row's JSON with its calibration stamp written in (replacing one it carried), as the gate stamps it. */
export function withStamp(json: string, stampJson: string | undefined): string {
  if (stampJson === undefined) return json;
  if (json.includes('"calibration"')) return JSON.stringify({ ...(JSON.parse(json) as Record<string, unknown>), calibration: JSON.parse(stampJson) as unknown });
  const body = json.trimEnd();
  return body === '{}' ? `{"calibration":${stampJson}}` : `${body.slice(0, -1)},"calibration":${stampJson}}`;
}
