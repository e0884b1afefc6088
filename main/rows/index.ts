// The rows module: the only code that names the `rows`, `labels`, `sync_outbox` and `kept_folds` tables. Its public surface,
// in one place (the sync outbox's queries will live in outbox.ts beside these).
export { ROW_COLUMNS, rowColumns, toStoredRow, goldStateOf, type RowColumns, type StoredRow, type GoldState } from './columns';
export { appendRows, filledOrdinals, type AppendOptions, type AppendResult, type RowBlock, type RowsToAppend } from './append';
export { rowCommitter, type RowCommitter } from './slot-committer';
export { RunFoldState, startRunFolds, type RunFolds } from './run-folds';
export { countRows, getRow, iterateRowJson, judgeStatusCounts, cutOrdinal, runScoreRows, pageRows, parsedRowPages, readDatasetRows, rowPages, taskRows, type OrdinalRange } from './read';
export { appendLabel, appendLabels, rowKeysInOrder, hasLabels, labelsByRowKey, labelsSince, listLabels, rowsWithKey, type LabelFilter, type LabelKind, type LabelRecord, type NewLabel } from './labels';
export { goldLabelRecord, withGold } from './gold';
export { ensureRowKeys, fillRowKeysGradually, storedRowKey } from './row-keys';
export { exportDataset, exportLines } from './export';
export { deleteDataset, recoverInterruptedImports } from './delete-dataset';
export { queueColumns, queueColumnsAfter, queueDetails, queueOutline, queuePageRows, rowJsonByOrdinal, rowsByKey, type KeyedRow, type QueueColumns, type QueueOutline, type QueuePageRow } from './queue-columns';
export { currentLabels, currentGoldRecords, goldStateFromOwn, goldStateWith } from './gold';
export { readLabeledRows } from './labeled-rows';
export { stampTrust } from './trust-stamp';
export { fillMarkerFlagsGradually, markerNames, markerOrdinals, type MarkerState } from './marker-flags';
export { stampDatasetMarkers } from './stamp-markers';
export { keepFold, keptFold, serializeFold } from './kept-folds';
