// Runs: one per simulation (id = its dataset's id), with the task set stored so resume needs no file.
// A rollout's slot is its row ordinal ((eval_run * tasks + task) * k + rollout_index), and task files
// refuse a repeated scenario_id, so the UNIQUE (dataset_id, ordinal) index of 0001 makes a duplicate
// (scenario_id, rollout_index, eval_run) in a run impossible, even after kill -9 and resume.
export const sql = `
CREATE TABLE runs (
  id             TEXT PRIMARY KEY REFERENCES datasets(id) ON DELETE CASCADE,
  config_json    TEXT NOT NULL,
  tasks_json     TEXT NOT NULL,
  status         TEXT NOT NULL CHECK (status IN ('running', 'done', 'cancelled', 'failed')),
  expected_rows  INTEGER NOT NULL,
  lost_json      TEXT NOT NULL DEFAULT '{"lost":0,"lost_by":{},"rerolled":0,"rerolled_by":{}}',
  error          TEXT,
  pid            INTEGER,
  created_at     TEXT NOT NULL,
  updated_at     TEXT NOT NULL,
  finished_at    TEXT
);

CREATE INDEX runs_by_status ON runs(status);
`;
