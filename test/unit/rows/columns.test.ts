// The declarative column list is the truth the INSERTs and the parse workers' blocks come from: it must agree
// with the rows table the migrations build, and a row read through it must come back through a block unchanged.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../../main/db/migrate';
import { encodeBlock, parseBlock } from '../../../main/datasets/parse-block';
import { rowProblem } from '../../../main/datasets/row-check';
import { blockRowValues } from '../../../main/rows/block-columns';
import { INSERT_COLUMNS, ROW_COLUMNS, rowColumns } from '../../../main/rows/columns';
import { rowKey } from '../../../shared/stats/keys';

describe('the rows column list', () => {
  it('names exactly the columns of the migrated rows table, with their types', () => {
    const db = new Database(':memory:');
    migrate(db);
    const table = db.prepare('PRAGMA table_info(rows)').all() as Array<{ name: string; type: string }>;
    const types = new Map(table.map((column) => [column.name, column.type]));
    for (const spec of ROW_COLUMNS) expect(types.get(spec.column), spec.column).toBe(spec.sql);
    expect([...types.keys()].filter((name) => name !== 'id').sort()).toEqual([...INSERT_COLUMNS].sort());
  });

  it('reads a row the same way directly and through a parse worker block (row keys later)', () => {
    const rows = [
      { schema_version: '1', prompt: 'p1', steps: [], final_text: 'hello', scenario_id: 't1', rollout_index: 2, reward: 0.5, gold_reward: 1, lineage: { eval_run: 3 } },
      { schema_version: '1', prompt: 'p2', steps: [], final_text: '', rollout_id: 'r-9', reward: null },
      { schema_version: '1', prompt: 'p3', steps: [], final_text: 'x', gold_reward: 0 },
    ];
    const block = parseBlock(encodeBlock(rows.map((row) => JSON.stringify(row)).join('\n')), rowProblem);
    expect(block.errors).toEqual([]);
    // Every shipped column as read directly; row_key and marker_flags are not shipped (filled when first needed).
    rows.forEach((row, i) => expect(blockRowValues(block.columns, i)).toEqual({ ...rowColumns(row), rowKey: null, markerFlags: null }));
    expect(rowColumns(rows[0])).toMatchObject({ scenarioId: 't1', rolloutIndex: 2, evalRun: 3, reward: 0.5, goldState: 'pass', rowKey: 't1#2' });
    expect(rowColumns(rows[1])).toMatchObject({ scenarioId: null, rolloutIndex: null, reward: null, goldState: 'none', rowKey: 'r-9' });
    expect(rowColumns(rows[2])).toMatchObject({ goldState: 'fail', rowKey: rowKey(rows[2]) });
    expect(rowColumns(rows[2]).rowKey).toMatch(/^[0-9a-f]{16}$/);
  });
});
