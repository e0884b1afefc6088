// Pairwise judging between two datasets (pairs.judge) and people's picks on the same pairs (the label desk's pair
// mode): a pair is (A, B, task, index), the index-th row of the task in each. Verdicts are the latest judge run's;
// labels are appended like row labels (an annotator's latest record is their pick; a null pick withdraws it).
export const sql = `
CREATE TABLE pair_verdicts (
  a_id       TEXT NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  b_id       TEXT NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  task       TEXT NOT NULL,
  pair_index INTEGER NOT NULL,
  judge      TEXT NOT NULL,
  winner     TEXT CHECK (winner IN ('chosen', 'rejected', 'tie')),
  created_at TEXT NOT NULL,
  PRIMARY KEY (a_id, b_id, task, pair_index)
);
CREATE TABLE pair_labels (
  label_id   INTEGER PRIMARY KEY AUTOINCREMENT,
  a_id       TEXT NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  b_id       TEXT NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  task       TEXT NOT NULL,
  pair_index INTEGER NOT NULL,
  annotator  TEXT NOT NULL,
  pick       TEXT CHECK (pick IN ('a', 'b', 'tie')),
  created_at TEXT NOT NULL
);
CREATE INDEX pair_labels_by_pair ON pair_labels (a_id, b_id, task, pair_index, label_id);
`;
