// A statistic's fold of a whole dataset, kept with the dataset version it read (main/rows/kept-folds.ts): read back
// while that version stands instead of parsing every row again. A derived copy: dropping this table loses
// nothing but time. One entry per dataset and fold key, replaced when the dataset has moved on.
export const sql = `
CREATE TABLE kept_folds (
  dataset_id  TEXT NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  fold_key    TEXT NOT NULL,
  version     INTEGER NOT NULL,
  kept_at     INTEGER NOT NULL,
  state       BLOB NOT NULL,
  PRIMARY KEY (dataset_id, fold_key)
);
`;
