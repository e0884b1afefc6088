// The queue's outline (one SQLite pass) gives the same judge classes, ordinals and default order as the full
// columns, for every kind of reward and for ordinals with gaps; the key lookup picks the row the key map would.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../main/db/connection';
import { ordinalAt, stratifiedFromClasses, stratifiedOrder } from '../../../main/labels/queue-rows';
import { seededRandom, seedOf, shuffle } from '../../../main/labels/seeded';
import { queueColumns, queueOutline, queuePageRows, rowsByKey } from '../../../main/rows/queue-columns';
import { tempDir } from '../../helpers/temp';

let db: Db | null = null;
afterEach(() => {
  db?.close();
  db = null;
});

function withRows(rows: Array<{ ordinal: number; reward: number | null; gold?: string; key?: string | null }>): Db {
  db = openDatabase(path.join(tempDir(), 'outline.db'));
  db.prepare("INSERT INTO datasets (id, name, kind, created_at, row_count) VALUES ('ds-1', 'outline', 'import', '2026-01-01', ?)").run(rows.length);
  const insert = db.prepare("INSERT INTO rows (dataset_id, ordinal, scenario_id, reward, gold_state, row_key, row_json) VALUES ('ds-1', ?, ?, ?, ?, ?, ?)");
  for (const row of rows) insert.run(row.ordinal, `t${row.ordinal}`, row.reward, row.gold ?? 'none', row.key === undefined ? `t${row.ordinal}#0` : row.key, JSON.stringify({ scenario_id: `t${row.ordinal}`, rollout_index: 0, reward: row.reward }));
  return db;
}

const REWARDS = [1, 0, 0.5, null, 1, 1, 0, 0.25, 1, 0, null, 1];

/** The stratified order as the queue has always built it (per class arrays, shuffled in turn): it must not move. */
function referenceOrder(classes: string, seed: string): number[] {
  const random = seededRandom(seedOf(seed));
  const byClass: Record<string, number[]> = { p: [], f: [], u: [] };
  [...classes].forEach((c, i) => byClass[c].push(i));
  const pass = shuffle(byClass.p, random);
  const fail = shuffle(byClass.f, random);
  const out: number[] = [];
  for (let i = 0; i < Math.max(pass.length, fail.length); i++) {
    if (i < pass.length) out.push(pass[i]);
    if (i < fail.length) out.push(fail[i]);
  }
  return [...out, ...shuffle(byClass.u, random)];
}

describe('queue outline', () => {
  it('keeps the stratified order it always had', () => {
    const random = seededRandom(7);
    const classes = Array.from({ length: 5000 }, () => 'ppppfu'[Math.floor(random() * 6)]).join('');
    expect(Array.from(stratifiedFromClasses(classes, 'ds-abc'))).toEqual(referenceOrder(classes, 'ds-abc'));
    expect(Array.from(stratifiedFromClasses('uuu', 'x'))).toEqual(referenceOrder('uuu', 'x'));
  });

  it('classes rows as judgeClass does and gives the stratified order of the full columns', () => {
    const db = withRows(REWARDS.map((reward, ordinal) => ({ ordinal, reward, gold: ordinal % 5 === 0 ? 'pass' : 'none' })));
    const outline = queueOutline(db, 'ds-1');
    expect(outline).toMatchObject({ count: 12, classes: 'pfuuppfupfup', ordinals: null, first: 0, ownGold: 3 });
    expect(Array.from(stratifiedFromClasses(outline.classes, 'ds-1'))).toEqual(Array.from(stratifiedOrder(queueColumns(db, 'ds-1'), 'ds-1')));
  });

  it('keeps the ordinals when they have gaps', () => {
    const db = withRows([7, 3, 20, 4].map((ordinal, i) => ({ ordinal, reward: i % 2 })));
    const outline = queueOutline(db, 'ds-1');
    expect(outline.ordinals).toEqual([3, 4, 7, 20]);
    // Rewards by ordinal: 3 -> 1, 4 -> 1, 7 -> 0, 20 -> 0.
    expect(outline.classes).toBe('ppff');
    expect([0, 1, 2, 3].map((i) => ordinalAt(outline, i))).toEqual([3, 4, 7, 20]);
  });

  it('is empty for a dataset without rows', () => {
    const db = withRows([]);
    expect(queueOutline(db, 'ds-1')).toEqual({ count: 0, classes: '', ordinals: null, first: 0, ownGold: 0 });
  });

  it('looks rows up by key (the last row of a repeated key) and reads a page with the JSON of unkeyed rows only', () => {
    const db = withRows([{ ordinal: 0, reward: 1, key: 'a' }, { ordinal: 1, reward: 0, key: 'a', gold: 'fail' }, { ordinal: 2, reward: 1, key: null }]);
    expect(rowsByKey(db, 'ds-1', ['a', 'missing'])).toEqual(new Map([['a', { ordinal: 1, goldState: 'fail', ownLabels: null }]]));
    const page = queuePageRows(db, 'ds-1', [2, 0]);
    expect(page.get(0)).toMatchObject({ rowKey: 'a', keyJson: null, reward: 1 });
    expect(page.get(2)?.rowKey).toBeNull();
    expect(JSON.parse(page.get(2)?.keyJson ?? '{}')).toMatchObject({ scenario_id: 't2' });
  });
});
