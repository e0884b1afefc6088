// Datasets and rows: list, import (streamed in chunks), export, page through rows, open one.
import { z } from '../schema/zod';
import { method } from './define';
import { markerFilter } from './labels';

export const datasetSummary = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(['import', 'run', 'graded']),
  status: z.string(),
  parent_id: z.string().nullable(),
  source: z.string().nullable(),
  created_at: z.string(),
  rows: z.number().int(),
  /** Bumped by every write to the dataset (rows, labels, status); `rows.changed` carries it. */
  version: z.number().int(),
});
export type DatasetSummary = z.infer<typeof datasetSummary>;

export const importLineError = z.object({ line: z.number().int(), message: z.string() });
export type ImportLineError = z.infer<typeof importLineError>;

export const importResult = z.object({
  dataset_id: z.string().nullable(),
  rows_imported: z.number().int(),
  rows_skipped: z.number().int(),
  errors: z.array(importLineError),
});
export type ImportResult = z.infer<typeof importResult>;

/** `gold` is the gold each row's labels give it (unlabeled first, then fail, then pass). */
export const rowSortKey = z.enum(['ordinal', 'reward', 'reply_length', 'task', 'gold']);
export type RowSortKey = z.infer<typeof rowSortKey>;

export const rowListItem = z.object({
  ordinal: z.number().int(),
  /** attach_labels' row_key (rollout_id, else scenario_id#rollout_index, else the prompt hash): what a label names. */
  row_key: z.string().nullable(),
  scenario_id: z.string().nullable(),
  rollout_index: z.number().int().nullable(),
  reward: z.number().nullable(),
  gold_state: z.string(),
  reply_length: z.number().int(),
  prompt_head: z.string(),
  reply_head: z.string(),
});
export type RowListItem = z.infer<typeof rowListItem>;

const datasetId = z.string().min(1, 'a dataset id is required');

export const datasetsApi = {
  'datasets.list': method(z.object({}).default({}), z.array(datasetSummary), 'List datasets and runs with their row counts'),
  'datasets.get': method(z.object({ id: datasetId }), datasetSummary, 'One dataset by id'),
  'datasets.importBegin': method(
    z.object({
      name: z.string().min(1).max(200),
      skip_invalid: z.boolean().default(false),
      source: z.string().max(1000).optional(),
    }),
    z.object({ import_id: z.string() }),
    'Start a streamed import; send the file with importChunk, finish with importEnd',
  ),
  'datasets.importChunk': method(
    z
      .object({
        import_id: z.string(),
        /** The file's bytes, base64: parsed by the same byte parser as a file the engine reads (invalid UTF-8 refused alike). */
        bytes_base64: z.string().max(22 * 1024 * 1024, 'a chunk is at most 16 MiB').optional(),
        /** Text already decoded (a client with no bytes at hand). */
        text: z.string().max(16 * 1024 * 1024, 'a chunk is at most 16 MiB').optional(),
      })
      .refine((input) => (input.bytes_base64 === undefined) !== (input.text === undefined), { message: 'send bytes_base64 or text, one of them' }),
    z.object({ lines_read: z.number().int(), rows_imported: z.number().int(), errors: z.number().int() }),
    'Send the next piece of the file (any split; lines may span chunks)',
  ),
  'datasets.importEnd': method(z.object({ import_id: z.string() }), importResult, 'Finish an import: commit it, or refuse it and write nothing'),
  'datasets.importFile': method(
    z.object({
      path: z.string().min(1, 'a file path is required'),
      name: z.string().min(1).max(200),
      skip_invalid: z.boolean().default(false),
      import_id: z.string().optional(),
    }),
    importResult,
    'Import a JSONL file the engine can read (CLI, desktop app); the engine reads it off-thread',
  ),
  'datasets.importAbort': method(z.object({ import_id: z.string() }), z.object({ aborted: z.boolean() }), 'Drop an import in progress'),
  'datasets.rows': method(
    z.object({
      id: datasetId,
      offset: z.number().int().min(0).default(0),
      limit: z.number().int().min(1).max(5000).default(200),
      sort: rowSortKey.default('ordinal'),
      descending: z.boolean().default(false),
      /** Only the rows whose marker is at a value (the label queue's marker filter). */
      marker: markerFilter.optional(),
    }),
    z.object({ total: z.number().int(), rows: z.array(rowListItem) }),
    'A page of a dataset\'s rows, sorted',
  ),
  'datasets.row': method(
    z.object({ id: datasetId, ordinal: z.number().int().min(0) }),
    z.object({ ordinal: z.number().int(), row: z.record(z.string(), z.unknown()) }),
    'One whole row',
  ),
  'datasets.taskRows': method(
    z.object({ id: datasetId, task: z.string().min(1, 'name the task (its scenario_id)'), limit: z.number().int().min(1).max(200).default(20) }),
    z.object({ rows: z.array(z.object({ ordinal: z.number().int(), row: z.record(z.string(), z.unknown()) })) }),
    'The rows of one task (scenario_id), in stored order: the compare screen shows both sides of a task',
  ),
  'datasets.export': method(
    z.object({ id: datasetId, path: z.string().min(1, 'an output file path is required') }),
    z.object({ rows: z.number().int(), path: z.string() }),
    'Write a dataset as row-v1 JSONL to a file the engine can write (atomically: PATH.partial, then renamed); labeled rows carry their gold',
  ),
  'datasets.exportText': method(
    z.object({ id: datasetId, offset: z.number().int().min(0).default(0), limit: z.number().int().min(1).max(20000).default(5000) }),
    z.object({ text: z.string(), rows: z.number().int(), done: z.boolean() }),
    'A slice of the export as JSONL text (a browser downloads an export this way, slice by slice)',
  ),
  'datasets.markerNames': method(
    z.object({ id: datasetId }),
    z.object({ names: z.array(z.string()) }),
    'The marker names the dataset\'s rows carry as a number or a boolean (what a marker filter can be set to), sorted',
  ),
  'datasets.stampMarkers': method(
    z.object({ id: datasetId }),
    z.object({ rows: z.number().int(), stamped: z.number().int(), version: z.number().int() }),
    'Write the style, trace and grounding markers into the stored rows (a row\'s own markers kept); a second stamp changes nothing',
  ),
  'datasets.delete': method(
    z.object({ id: datasetId, with_copies: z.boolean().default(false) }),
    z.object({ deleted: z.boolean(), deleted_ids: z.array(z.string()) }),
    'Delete a dataset, its rows and labels; one with graded copies is refused unless with_copies (then they go too)',
  ),
} as const;

export const datasetsEvents = {
  'import.progress': z.object({ import_id: z.string(), lines_read: z.number(), rows_imported: z.number(), errors: z.number() }),
  /** A dataset was added or removed, or its status changed: lists refresh. */
  'datasets.changed': z.object({ id: z.string() }),
  /** A dataset's rows, labels or status changed; views of it re-read when the version moved. */
  'rows.changed': z.object({ dataset_id: z.string(), version: z.number().int() }),
} as const;
