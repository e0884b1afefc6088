// What labels and change tracking need, and the datasets table without its CHECK on kind (new kinds need no
// rebuild; it is rebuilt now, before more tables reference it):
// - datasets.version: one number per dataset, bumped by every write (rows, labels, status); readers key caches on it.
// - datasets.row_count: kept by the rows module's appendRows, so lists never count rows.
// - rows.row_key: attach_labels' row_key (rollout_id, else scenario_id#rollout_index, else the prompt hash), what
//   a label names, indexed with the dataset. Filled for existing rows by while_row_key(), a function migrate.ts
//   registers (the same rowKey as shared/stats/keys.ts). An import stores it null until the dataset is first
//   labeled (main/rows/row-keys.ts), and the index holds only the rows that have one: a bulk import then
//   maintains no second index (a third of its write time).
// The rebuild runs with foreign keys off (migrate.ts), so dropping the old table cascades to nothing (runs'
// ON DELETE CASCADE); migrate.ts checks every foreign key before the migration commits.
export const sql = `
CREATE TABLE datasets_new (
  id          TEXT PRIMARY KEY,
  name        TEXT NOT NULL,
  kind        TEXT NOT NULL,
  status      TEXT NOT NULL DEFAULT 'ready',
  parent_id   TEXT REFERENCES datasets(id),
  source      TEXT,
  created_at  TEXT NOT NULL,
  meta_json   TEXT NOT NULL DEFAULT '{}',
  version     INTEGER NOT NULL DEFAULT 0,
  row_count   INTEGER NOT NULL DEFAULT 0
);
INSERT INTO datasets_new (id, name, kind, status, parent_id, source, created_at, meta_json, version, row_count)
  SELECT d.id, d.name, d.kind, d.status, d.parent_id, d.source, d.created_at, d.meta_json, 1,
         (SELECT COUNT(*) FROM rows r WHERE r.dataset_id = d.id)
  FROM datasets d;
DROP TABLE datasets;
ALTER TABLE datasets_new RENAME TO datasets;

ALTER TABLE rows ADD COLUMN row_key TEXT;
UPDATE rows SET row_key = while_row_key(row_json);
CREATE INDEX rows_by_key ON rows(dataset_id, row_key) WHERE row_key IS NOT NULL;
`;
