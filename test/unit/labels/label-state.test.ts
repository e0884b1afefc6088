// The label state kept per dataset and brought up to date from the labels appended since equals the state read
// from scratch (a second connection, no cache) after every step: labels, withdrawals, relabels, labels written by
// another connection, rows appended with a repeated key, and a dataset's labels going away.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../main/db/connection';
import { currentVotes, labelState } from '../../../main/labels/current';
import { seededRandom } from '../../../main/labels/seeded';
import { appendLabel } from '../../../main/rows/labels';
import { tempDir } from '../../helpers/temp';

const open: Db[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

function connect(file: string): Db {
  const db = openDatabase(file);
  open.push(db);
  return db;
}

function addRows(db: Db, from: number, count: number, key: (i: number) => string): void {
  const insert = db.prepare("INSERT INTO rows (dataset_id, ordinal, scenario_id, reward, gold_state, row_key, row_json) VALUES ('ds-1', ?, ?, ?, ?, ?, ?)");
  for (let i = from; i < from + count; i++) {
    const own = i % 7 === 0 ? { gold_labels: [{ label: 1, annotator: 'ext', kind: 'human', ts: 1 }], gold_reward: 1, gold_kind: 'human' } : {};
    insert.run(i, `t${i}`, i % 3 ? 1 : 0, i % 7 === 0 ? 'pass' : 'none', key(i), JSON.stringify({ scenario_id: `t${i}`, rollout_index: 0, reward: i % 3 ? 1 : 0, ...own }));
  }
  db.prepare("UPDATE datasets SET row_count = row_count + ? WHERE id = 'ds-1'").run(count);
}

const plain = (state: ReturnType<typeof labelState>) => ({
  votes: [...state.votes].map(([key, votes]) => [key, [...votes]]).sort(),
  gold: [...state.gold].sort(),
  owners: [...state.owners].sort(),
});

describe('label state kept up to date', () => {
  it('equals a read from scratch after every kind of change', () => {
    const file = path.join(tempDir(), 'state.db');
    const db = connect(file);
    db.prepare("INSERT INTO datasets (id, name, kind, created_at) VALUES ('ds-1', 'state', 'import', '2026-01-01')").run();
    addRows(db, 0, 30, (i) => `k${i}`);
    const other = connect(file);
    const scratch = () => plain(labelState(connect(file), 'ds-1'));
    const random = seededRandom(11);
    const annotators = ['ana', 'ben', 'cho'];
    for (let step = 0; step < 60; step++) {
      const writer = step % 5 === 4 ? other : db;
      const value = random() < 0.2 ? null : ((random() < 0.5 ? 0 : 1) as 0 | 1);
      appendLabel(writer, { datasetId: 'ds-1', rowKey: `k${Math.floor(random() * 12)}`, annotator: annotators[step % 3], kind: 'human', value });
      if (step === 30) addRows(db, 30, 3, (i) => (i === 31 ? 'k3' : `k${i}`)); // k3 now stands for its last row
      if (step % 3 === 0) expect(plain(labelState(db, 'ds-1'))).toEqual(scratch());
    }
    expect(plain(labelState(db, 'ds-1'))).toEqual(scratch());
    expect(labelState(db, 'ds-1').owners.get('k3')?.ordinal).toBe(31);
    expect([...currentVotes(db, 'ds-1').votes.keys()].sort()).toEqual([...currentVotes(connect(file), 'ds-1').votes.keys()].sort());
    // The dataset's labels go away (as deleting it does): nothing of them stays.
    db.prepare("DELETE FROM labels WHERE dataset_id = 'ds-1'").run();
    appendLabel(db, { datasetId: 'ds-1', rowKey: 'k1', annotator: 'ana', kind: 'human', value: 0 });
    expect(plain(labelState(db, 'ds-1'))).toEqual(scratch());
    expect(labelState(db, 'ds-1').votes.size).toBe(1);
  });
});
