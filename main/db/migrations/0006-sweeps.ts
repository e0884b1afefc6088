// Sweeps and the agents registry. A sweep is the parent of its runs through sweep_runs: one row per (arm, rerun),
// written in the same transaction as the run itself, so a crash never leaves an arm with two runs or an orphan.
// `agents` holds the version marked serving per agent name (`while-desk promote`); runs carry name and version in
// their config.
export const sql = `
CREATE TABLE sweeps (
  id           TEXT PRIMARY KEY,
  name         TEXT NOT NULL,
  config_json  TEXT NOT NULL,
  tasks_text   TEXT NOT NULL,
  status       TEXT NOT NULL CHECK (status IN ('running', 'done', 'failed')),
  pid          INTEGER,
  error        TEXT,
  report_json  TEXT,
  created_at   TEXT NOT NULL,
  updated_at   TEXT NOT NULL,
  finished_at  TEXT
);

CREATE TABLE sweep_runs (
  sweep_id  TEXT NOT NULL REFERENCES sweeps(id) ON DELETE CASCADE,
  arm       INTEGER NOT NULL,
  rerun     INTEGER NOT NULL,
  run_id    TEXT NOT NULL UNIQUE REFERENCES runs(id) ON DELETE CASCADE,
  PRIMARY KEY (sweep_id, arm, rerun)
);

CREATE TABLE agents (
  name        TEXT PRIMARY KEY,
  serving     TEXT,
  updated_at  TEXT NOT NULL
);
`;
