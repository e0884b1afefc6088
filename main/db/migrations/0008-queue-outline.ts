// The labeling queue's outline (main/rows/queue-columns.ts, queueOutline) reads every row's judge class and
// arrived gold in ordinal order when a dataset's queue first opens. Served from the table that pass reads every
// row's whole record (a 100k-row dataset's tens of MB); from this index, a few hundred KB. Its entries arrive in
// ordinal order, so an import appends to its end.
export const sql = `
CREATE INDEX rows_queue_outline ON rows(dataset_id, ordinal, reward, gold_state);
`;
