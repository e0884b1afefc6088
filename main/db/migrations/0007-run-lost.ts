// A run's loss counts change with every commit that re-rolled or lost a rollout. They live apart from the runs row,
// whose task set (tasks_json) can be megabytes that SQLite would otherwise rewrite on each such commit.
// runs.lost_json stays as the value of runs stored before this migration (copied here); nothing writes it anymore.
export const sql = `
CREATE TABLE run_lost (
  run_id     TEXT PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
  lost_json  TEXT NOT NULL
);
INSERT INTO run_lost (run_id, lost_json) SELECT id, lost_json FROM runs;
`;
