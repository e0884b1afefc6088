// A run's task set moves out of the runs row into a table of its own. SQLite reads a row's columns in order, and a
// column past a large one (status, pid, expected_rows, ... all came after tasks_json) costs a walk along that
// value's overflow pages: listing two runs of 25,000 tasks took 50-75 ms, every datasets or runs list paid it, and
// so did every read of a run. The task set is read only when a run starts or resumes.
export const sql = `
CREATE TABLE run_tasks (
  run_id      TEXT PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
  tasks_json  TEXT NOT NULL
);
INSERT INTO run_tasks (run_id, tasks_json) SELECT id, tasks_json FROM runs;
ALTER TABLE runs DROP COLUMN tasks_json;
`;
