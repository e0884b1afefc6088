// Kept folds (shared/stats/kept-folds.ts, main/rows/kept-folds.ts): the fold a run keeps is the one the compare
// screen's report reads, made in slot order whatever order the rows land in; read back from its kept form it gives exactly the report and table of a fresh fold; an
// entry is read only at the version it was kept for; and the fold's state is pinned, so a change to what the fold
// gathers cannot ship without a new format (which makes older kept folds unread).
import { createHash } from 'node:crypto';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { openDatabase } from '../../../main/db/connection';
import { insertDataset } from '../../../main/db/repos/datasets';
import { datasetVersion } from '../../../main/db/changes';
import { decodeFoldState, encodeFoldState } from '../../../main/rows/fold-codec';
import { appendRows, deleteDataset, keepFold, keptFold, readDatasetRows, RunFoldState, serializeFold, toStoredRow } from '../../../main/rows/index';
import { deltaReportOfSides } from '../../../shared/stats/delta-report';
import { deltaPlan, type DeltaSide } from '../../../shared/stats/delta-side';
import { DELTA_SIDE_KEEP, foldsKeptAtWrite, keptFoldKey } from '../../../shared/stats/kept-folds';
import { pairedTaskTable } from '../../../shared/stats/paired-tasks';
import { meansOf } from '../../../shared/stats/task-sums';
import { bindFold } from '../../../shared/stats/registry/define';
import { compareReportStatistic } from '../../../shared/stats/registry/compare-report';
import { deltaStatistic } from '../../../shared/stats/registry/delta';
import { compareInput } from '../../../renderer/src/pages/compare/compare-input';
import { tempDir } from '../../helpers/temp';

/** Rows of `tasks` tasks x 4 that reach every part of the fold: markers, slices, re-runs, failed judges, a null row. */
function sideRows(tasks: number, shift: number): unknown[] {
  const out: unknown[] = [];
  for (let t = 0; t < tasks; t++) {
    for (let r = 0; r < 4; r++) {
      out.push({
        scenario_id: `task_${t}`, rollout_index: r, prompt: `p${t}`, final_text: r === 3 && t % 5 === 0 ? '' : `reply ${t}.${r}`, steps: [],
        reward: (t * 7 + r * 3 + shift) % 5 < 2 ? 1 : 0, category: `c${t % 3}`, slice: t % 2 ? `s${t % 4}` : undefined,
        markers: { tool_calls: (t + r) % 3, ...(t % 4 === 0 ? { rare: 0.5 } : {}) }, lineage: { eval_run: r % 2 },
        judge_status: (t + r) % 17 === 0 ? 'error' : 'ok', sampling: { temperature: 0.7 }, finish_reason: r === 2 && t % 9 === 0 ? 'length' : 'stop',
      });
    }
  }
  out.push(null);
  return out;
}

const [kept] = foldsKeptAtWrite();
function foldOf(rows: readonly unknown[]): DeltaSide {
  const side = kept.start() as DeltaSide;
  for (const row of rows) kept.add(side, row);
  return side;
}

let db: ReturnType<typeof openDatabase> | null = null;
afterEach(() => {
  db?.close();
  db = null;
});

describe('kept folds', () => {
  it('keeps, at write, the fold the compare screen opens with (and delta_report with the same options)', () => {
    const screen = compareInput('a', 'b');
    const params = { target: screen.target, must_not_regress: screen.must_not_regress };
    expect(bindFold(compareReportStatistic, { params, options: {} }).keepKey).toBe(kept.key);
    expect(bindFold(deltaStatistic, { params: {}, options: {} }).keepKey).toBe(kept.key);
    // Other options fold other things: kept under their own key, or (a callable grouping) not at all.
    const byKey = bindFold(deltaStatistic, { params: { by: 'category' }, options: {} }).keepKey;
    expect(byKey).not.toBe(kept.key);
    expect(byKey).toBe(keptFoldKey(DELTA_SIDE_KEEP, JSON.stringify(deltaPlan({ by: 'category' }))));
    const callable = Object.assign(() => 'g', { displayName: 'g' });
    expect(bindFold(deltaStatistic, { params: { by: callable }, options: {} }).keepKey).toBeNull();
  });

  it('read back from its kept form, gives exactly the report and table of a fresh fold', () => {
    const before = sideRows(300, 0);
    const after = sideRows(300, 1);
    const options = { target: 'pass_at_1', must_not_regress: [] };
    const fresh = [foldOf(before), foldOf(after)];
    const restored = fresh.map((side) => decodeFoldState(encodeFoldState(side)) as DeltaSide);
    expect(restored).toEqual(fresh);
    const report = (sides: DeltaSide[]) => ({
      report: deltaReportOfSides(sides[0], sides[1], options),
      table: pairedTaskTable(meansOf(sides[0].passAt.tasks), meansOf(sides[1].passAt.tasks)),
    });
    const expected = report(fresh);
    expect(report(restored)).toEqual(expected);
    expect(report(restored)).toEqual(expected); // the report reads its sides, never changes them
    expect(expected.report.n_paired_tasks).toBe(300);
  });

  it('pins the fold of a fixed row set: a change to it needs a new DELTA_SIDE_KEEP.format', () => {
    const state = foldOf(sideRows(40, 0));
    const digest = createHash('sha256').update(encodeFoldState(state)).digest('hex').slice(0, 16);
    // If this fails, the delta side's fold now gathers something else: raise DELTA_SIDE_KEEP.format (so folds kept
    // by the older code are never read) and update the digest.
    expect({ format: DELTA_SIDE_KEEP.format, digest }).toEqual({ format: 4, digest: PINNED_DIGEST });
  });

  it('is read only at the version it was kept for, and goes with its dataset', () => {
    const dir = tempDir();
    db = openDatabase(path.join(dir, 'desk.db'));
    const id = insertDataset(db, { name: 'x', kind: 'import' });
    const rows = sideRows(5, 0).filter((row) => row !== null) as Array<Record<string, unknown>>;
    appendRows(db, id, rows.slice(0, 10).map((row, i) => toStoredRow(row, i)));
    const version = datasetVersion(db, id)!;
    expect(keepFold(db, id, kept.key, version, serializeFold(foldOf(rows.slice(0, 10))))).toBe(true);
    expect(keptFold(db, id, kept.key, version)).toEqual(foldOf(rows.slice(0, 10)));
    expect(keepFold(db, id, kept.key, version - 1, serializeFold(foldOf([])))).toBe(false); // of rows it no longer has

    appendRows(db, id, rows.slice(10).map((row, i) => toStoredRow(row, 10 + i)));
    const later = datasetVersion(db, id)!;
    expect(later).toBeGreaterThan(version);
    expect(keptFold(db, id, kept.key, later)).toBeUndefined();
    expect(keepFold(db, id, kept.key, later, serializeFold(foldOf(rows)))).toBe(true);
    expect(keptFold(db, id, kept.key, later)).toEqual(foldOf(rows));
    expect(keptFold(db, id, kept.key, version)).toBeUndefined(); // the older entry was dropped

    // A damaged entry is a miss, never an error or a wrong fold.
    const raw = new Database(path.join(dir, 'desk.db'));
    raw.prepare('UPDATE kept_folds SET state = ? WHERE dataset_id = ?').run(Buffer.from('not a fold'), id);
    raw.close();
    expect(keptFold(db, id, kept.key, later)).toBeUndefined();

    deleteDataset(db, id);
    expect(db.prepare('SELECT COUNT(*) FROM kept_folds').pluck().get()).toBe(0);
  });

  it('a run folds its rows in slot order whatever order they land in, and keeps nothing with a slot missing', () => {
    db = openDatabase(path.join(tempDir(), 'desk.db'));
    const rows = (sideRows(30, 2).filter((row) => row !== null) as Array<Record<string, unknown>>).map((row, i) => toStoredRow(row, i));
    const shuffled = [...rows].sort((a, b) => ((a.ordinal * 7919) % 31) - ((b.ordinal * 7919) % 31));
    const keptOf = (landing: typeof rows, all = true) => {
      const id = insertDataset(db!, { name: 'run', kind: 'run' });
      appendRows(db!, id, rows);
      const folds = new RunFoldState();
      for (let i = 0; i < landing.length; i += 5) folds.landed(landing.slice(i, i + 5).map((row) => ({ ordinal: row.ordinal, json: row.json as string })));
      const taken = folds.take();
      for (const { key, bytes } of taken ?? []) keepFold(db!, id, key, datasetVersion(db!, id)!, bytes);
      const found = keptFold(db!, id, kept.key, datasetVersion(db!, id)!);
      if (all) expect(found).toEqual(foldOf(readDatasetRows(db!, id)));
      return found;
    };
    keptOf(rows);
    keptOf(shuffled);
    expect(keptOf(shuffled.filter((row) => row.ordinal !== 17), false)).toBeUndefined();
  });

  it('keeps a few fold keys per dataset, the newest', () => {
    db = openDatabase(path.join(tempDir(), 'desk.db'));
    const id = insertDataset(db, { name: 'x', kind: 'import' });
    const version = datasetVersion(db, id)!;
    for (let i = 0; i < 6; i++) keepFold(db, id, `key-${i}`, version, serializeFold({ i }));
    const keys = db.prepare('SELECT fold_key FROM kept_folds WHERE dataset_id = ? ORDER BY fold_key').pluck().all(id);
    expect(keys).toEqual(['key-2', 'key-3', 'key-4', 'key-5']);
  });

  it('drops the folds an older build kept under the same name in another format', () => {
    db = openDatabase(path.join(tempDir(), 'desk.db'));
    const id = insertDataset(db, { name: 'x', kind: 'import' });
    const version = datasetVersion(db, id)!;
    const older = keptFoldKey({ as: 'delta_side', format: 2 }, '{"plan":1}');
    const otherName = keptFoldKey({ as: 'delta_side_extra', format: 1 }, '{"plan":1}');
    const otherPlan = keptFoldKey({ as: 'delta_side', format: 3 }, '{"plan":2}');
    for (const key of [older, otherName, otherPlan]) keepFold(db, id, key, version, serializeFold({ key }));
    keepFold(db, id, keptFoldKey({ as: 'delta_side', format: 3 }, '{"plan":1}'), version, serializeFold({}));
    const keys = db.prepare('SELECT fold_key FROM kept_folds WHERE dataset_id = ?').pluck().all(id) as string[];
    expect(keys.sort()).toEqual([otherPlan, keptFoldKey({ as: 'delta_side', format: 3 }, '{"plan":1}'), otherName].sort());
  });
});

const PINNED_DIGEST = 'b77efa144935ed77';
