// Datasets (imports, runs, graded copies), rows, labels and the sync outbox.
export const sql = `
CREATE TABLE datasets (
  id          TEXT PRIMARY KEY,
  name        TEXT NOT NULL,
  kind        TEXT NOT NULL CHECK (kind IN ('import', 'run', 'graded')),
  status      TEXT NOT NULL DEFAULT 'ready',
  parent_id   TEXT REFERENCES datasets(id),
  source      TEXT,
  created_at  TEXT NOT NULL,
  meta_json   TEXT NOT NULL DEFAULT '{}'
);

CREATE TABLE rows (
  id            INTEGER PRIMARY KEY,
  dataset_id    TEXT NOT NULL REFERENCES datasets(id),
  ordinal       INTEGER NOT NULL,
  scenario_id   TEXT,
  rollout_index INTEGER,
  eval_run      INTEGER,
  reward        REAL,
  gold_state    TEXT NOT NULL DEFAULT 'none',
  reply_length  INTEGER NOT NULL DEFAULT 0,
  row_json      TEXT NOT NULL
);
-- The one index rows need. Sorted views (reward, reply length, task) are computed per dataset and kept in
-- memory (repos/sorted-rows.ts): a sort index per column would double the cost of every bulk import.
CREATE UNIQUE INDEX rows_by_ordinal ON rows(dataset_id, ordinal);

-- Append-only: a label is never updated or deleted; the current gold is derived from the latest records.
CREATE TABLE labels (
  id          INTEGER PRIMARY KEY,
  dataset_id  TEXT NOT NULL REFERENCES datasets(id),
  row_key     TEXT NOT NULL,
  annotator   TEXT NOT NULL,
  kind        TEXT NOT NULL,
  value       TEXT,
  note        TEXT,
  created_at  TEXT NOT NULL
);
CREATE INDEX labels_by_row ON labels(dataset_id, row_key, id);

-- An item leaves the outbox only when the platform confirmed it.
CREATE TABLE sync_outbox (
  id            INTEGER PRIMARY KEY,
  kind          TEXT NOT NULL,
  dataset_id    TEXT,
  payload_json  TEXT NOT NULL,
  attempts      INTEGER NOT NULL DEFAULT 0,
  last_error    TEXT,
  next_try_at   TEXT,
  created_at    TEXT NOT NULL
);
`;
