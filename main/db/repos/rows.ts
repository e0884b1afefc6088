// Queries on the rows table: batched inserts, sorted pages, whole rows, streaming reads.
import type { RowListItem, RowSortKey } from '../../../shared/api/datasets';
import type { Db } from '../connection';
import { sortedPage } from './sorted-rows';

export interface StoredRow {
  ordinal: number;
  scenarioId: string | null;
  rolloutIndex: number | null;
  evalRun: number | null;
  reward: number | null;
  goldState: string;
  replyLength: number;
  json: string;
}

export function rowInserter(db: Db, datasetId: string): (rows: StoredRow[]) => void {
  const insert = db.prepare(
    `INSERT INTO rows (dataset_id, ordinal, scenario_id, rollout_index, eval_run, reward, gold_state, reply_length, row_json)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  return db.transaction((rows: StoredRow[]) => {
    for (const row of rows) {
      insert.run(datasetId, row.ordinal, row.scenarioId, row.rolloutIndex, row.evalRun, row.reward, row.goldState, row.replyLength, row.json);
    }
  });
}

const HEAD_CHARS = 160;

export function countRows(db: Db, datasetId: string): number {
  return (db.prepare('SELECT COUNT(*) AS n FROM rows WHERE dataset_id = ?').get(datasetId) as { n: number }).n;
}

const LIST_COLUMNS = `ordinal, scenario_id, rollout_index, reward, gold_state, reply_length,
  substr(json_extract(row_json, '$.prompt'), 1, ${HEAD_CHARS}) AS prompt_head,
  substr(json_extract(row_json, '$.final_text'), 1, ${HEAD_CHARS}) AS reply_head`;

type ListRow = RowListItem & { prompt_head: unknown; reply_head: unknown };

function toListItem(row: ListRow): RowListItem {
  return { ...row, prompt_head: String(row.prompt_head ?? ''), reply_head: String(row.reply_head ?? '') };
}

export function pageRows(db: Db, datasetId: string, sort: RowSortKey, descending: boolean, offset: number, limit: number): RowListItem[] {
  if (sort === 'ordinal') {
    const rows = db
      .prepare(`SELECT ${LIST_COLUMNS} FROM rows WHERE dataset_id = ? ORDER BY ordinal ${descending ? 'DESC' : 'ASC'} LIMIT ? OFFSET ?`)
      .all(datasetId, limit, offset) as ListRow[];
    return rows.map(toListItem);
  }
  const ordinals = sortedPage(db, datasetId, sort, descending, offset, limit);
  if (ordinals.length === 0) return [];
  const found = db
    .prepare(`SELECT ${LIST_COLUMNS} FROM rows WHERE dataset_id = ? AND ordinal IN (SELECT value FROM json_each(?))`)
    .all(datasetId, JSON.stringify(ordinals)) as ListRow[];
  const byOrdinal = new Map(found.map((row) => [row.ordinal, row]));
  return ordinals.flatMap((ordinal) => {
    const row = byOrdinal.get(ordinal);
    return row ? [toListItem(row)] : [];
  });
}

export function getRowJson(db: Db, datasetId: string, ordinal: number): string | undefined {
  const row = db.prepare('SELECT row_json FROM rows WHERE dataset_id = ? AND ordinal = ?').get(datasetId, ordinal) as { row_json: string } | undefined;
  return row?.row_json;
}

/** Every row's JSON in stored order, without holding them all in memory. */
export function* iterateRowJson(db: Db, datasetId: string): Generator<string> {
  const statement = db.prepare('SELECT row_json FROM rows WHERE dataset_id = ? ORDER BY ordinal').pluck();
  for (const json of statement.iterate(datasetId)) yield json as string;
}

/** Every row parsed, in stored order (for statistics and grading). */
export function loadRows(db: Db, datasetId: string): Record<string, unknown>[] {
  const statement = db.prepare('SELECT row_json FROM rows WHERE dataset_id = ? ORDER BY ordinal').pluck();
  return (statement.all(datasetId) as string[]).map((json) => JSON.parse(json) as Record<string, unknown>);
}
