// The publish gate a push runs (push-plan.ts, gate-input.ts: the rows table's columns, then the rows they do not
// describe, the row facts folded by the upload or by a scan) against publishGate on the same rows in memory: the
// same refusal, report and stamps, on rows the columns alone would misread.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../main/db/connection';
import { readDatasetRows } from '../../main/rows/index';
import { RowFacts } from '../../main/sync/gate-input';
import { jsonlStream } from '../../main/sync/jsonl-stream';
import { gateReportOf, planPush, TRAIN } from '../../main/sync/push-plan';
import { publishGate } from '../../shared/platform/index';
import { isObject, pyTruthy } from '../../shared/stats/keys';
import { engineWithRows, tempDir } from './sync-helpers';

type Obj = Record<string, unknown>;

/** What the gate reads of a row: the report's pass_at config is over these fields (what a push always reported). */
function gateView(row: Obj): Obj {
  const view: Obj = { scenario_id: row.scenario_id, reward: row.reward };
  if (!pyTruthy(row.scenario_id)) Object.assign(view, { task_id: row.task_id, prompt: pyTruthy(row.task_id) ? undefined : row.prompt });
  for (const key of ['qwen_reward', 'policy_version', 'model_version', 'calibration'] as const) if (row[key] !== undefined) view[key] = row[key];
  const trust = isObject(row.judge_meta) ? row.judge_meta.trust : undefined;
  if (trust) view.judge_meta = { trust };
  return view;
}

/** Rows the columns misread or cannot read, among ten plain tasks of four (rows 0-39, sdkRow's). */
const EDGE: Record<number, Obj> = {
  1: { calibration: { task_id: 't0', student: { name: 'old' }, n: 40, pass_rate: 0.3, mean_kl: null, pass_rate_ci95: [0.2, 0.4] } },
  2: { policy_version: 'other-agent@fedcba9876543210' },
  5: { policy_version: undefined, model_version: 'v-5' },
  9: { judge_meta: { version: 'j1' } },
  13: { judge_meta: { version: 'j1', trust: { level: 'trusted', agreement: 0.9 } } },
  17: { judge_meta: { trust: { level: 'other' } } },
  40: { scenario_id: 7, reward: 1 },
  41: { scenario_id: 7, reward: 0 },
  42: { scenario_id: true, reward: 0 },
  43: { scenario_id: 'true', reward: 1 },
  44: { scenario_id: 'true', reward: 1 },
  45: { scenario_id: null, task_id: 'tid-1', reward: 1 },
  46: { scenario_id: '', task_id: 'tid-1', reward: 0 },
  47: { scenario_id: 'a,b', reward: 1 },
  48: { scenario_id: 'a,b', reward: 0.5, qwen_reward: 0 },
  49: { scenario_id: 'a,b', reward: null },
  50: { scenario_id: 't1', reward: 0.25 },
  51: { scenario_id: '7', reward: 1 }, // the same task as scenario_id 7 (task_key is str()), stored alike
  52: { scenario_id: 't2', reward: null },
};

let dir: string;
let db: Db;
let datasetId: string;

beforeAll(async () => {
  dir = tempDir('wd-sync-gate-');
  const made = await engineWithRows(dir, 53, (i) => EDGE[i] ?? {});
  datasetId = made.datasetId;
  await made.engine.close();
  db = openDatabase(path.join(dir, 'desk.sqlite'));
  expect(readDatasetRows(db, datasetId)).toHaveLength(53);
});
afterAll(() => db.close());

async function streamed(plan: ReturnType<typeof planPush>, facts?: RowFacts): Promise<Obj[]> {
  const chunks: Buffer[] = [];
  for await (const chunk of jsonlStream(db, datasetId, { plan, side: TRAIN, facts })) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as Obj);
}

describe("a push's publish gate", () => {
  it('refuses, reports and stamps as publishGate does on the rows in memory', async () => {
    const rows = readDatasetRows(db, datasetId);
    // A push that names no endorsed feature and no strict_hacks makes no hack scan (hack_scan null in its report).
    const expected = publishGate(rows.map(gateView), { mode: 'rl', strict: false, hack_scan: null });
    const plan = planPush(db, datasetId, { gate: true, mode: 'rl', rows: rows.length });
    expect(plan.gate!.refusal).toBe(expected.report.refusal);
    const scanned = gateReportOf(db, datasetId, plan.gate!);
    expect(scanned).toEqual(expected.report);
    // The edge rows are all in it: a carried stamp, the judge's trust, mixed policy versions, string and qwen labels.
    expect(scanned).toMatchObject({ judge_trust: { level: 'trusted' }, calibration: { n_carried: 1, n_rows: 53, n_stamped: 50 } });
    expect(scanned.calibration.pass_at.config).toMatchObject({ policy_version: null, mixed: ['policy_version', 'prompt_hash'] });

    // The upload stamps each row as publishGate stamps it (on the whole rows), and folds the facts the report needs.
    const facts = new RowFacts(plan.gate!.part.tasks, plan.gate!.student);
    const sent = await streamed({ ...plan, gate: { ...plan.gate!, report: null } }, facts);
    const stamps = publishGate(rows, { mode: 'rl', strict: false, hack_scan: null }).stamps;
    expect(sent.map((row) => row.calibration ?? null)).toEqual(stamps.map((stamp, i) => stamp ?? rows[i].calibration ?? null));
    expect(gateReportOf(db, datasetId, { ...plan.gate!, report: null }, facts)).toEqual(expected.report);
  });

  it('an ungraded RL set is refused, and its note says why as pass_at does on the rows', () => {
    const ungradedDir = tempDir('wd-sync-gate-ungraded-');
    return engineWithRows(ungradedDir, 8, (i) => ({ reward: null, judge_status: i % 2 ? 'error' : 'timeout', reason: 'the judge timed out' })).then(async (made) => {
      await made.engine.close();
      const other = openDatabase(path.join(ungradedDir, 'desk.sqlite'));
      try {
        const rows = readDatasetRows(other, made.datasetId);
        const plan = planPush(other, made.datasetId, { gate: true, rows: rows.length });
        const expected = publishGate(rows, { strict: false, hack_scan: null }).report;
        expect(plan.gate!.refusal).toMatch(/^ungraded_rl_rows: /);
        const report = gateReportOf(other, made.datasetId, plan.gate!);
        expect(report.refusal).toBe(expected.refusal);
        expect(report.calibration.pass_at.note).toBe(expected.calibration.pass_at.note);
        expect(report.calibration.pass_at.note).toMatch(/^the judge failed on all 8 rows \(error\/timeout\)/);
      } finally {
        other.close();
      }
    });
  });
});
