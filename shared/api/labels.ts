// Labels: appended records (row key, annotator, kind, value, note, time). An annotator's current label on a row is
// their latest record for it (a null value withdraws it: undo appends one). A row's gold is derived from the
// current labels on every read, as attach_labels derives it (sdk-semantics §6). The labeling desk's queue,
// import/export in the SDK's label format, and the annotators' summary live here too.
import { z } from '../schema/zod';
import { method } from './define';

export const labelKind = z.enum(['human', 'program', 'model']);
// 'verifier' is attach_labels' alias of 'program'.
const kindInput = z.preprocess((value) => (value === 'verifier' ? 'program' : value), labelKind);
const datasetId = z.string().min(1, 'a dataset id is required');

export const labelRecord = z.object({
  label_id: z.number().int(),
  dataset_id: z.string(),
  row_key: z.string(),
  annotator: z.string(),
  kind: labelKind,
  /** 1 pass, 0 fail, null withdrawn (the annotator's earlier label on the row no longer counts). */
  value: z.union([z.literal(0), z.literal(1)]).nullable(),
  note: z.string().nullable(),
  created_at: z.string(),
  /** created_at in epoch seconds: the `ts` stamped into gold_labels. */
  ts: z.number(),
});
export type LabelRecordOut = z.infer<typeof labelRecord>;

export const queueOrder = z.enum(['stratified', 'unlabeled', 'disagreements', 'aimed']);
export type QueueOrder = z.infer<typeof queueOrder>;

/** Rows whose marker `name` is `value` (0: the behaviour showed, 1: the agent did the right thing; docs/markers.md). */
export const markerFilter = z.object({ name: z.string().min(1, 'name the marker'), value: z.union([z.literal(0), z.literal(1)]) });

export const queueFilters = z.object({
  task: z.string().optional(),
  category: z.string().optional(),
  /** The judge's verdict: reward 1, reward 0, or no binary reward. */
  reward: z.enum(['pass', 'fail', 'ungraded']).optional(),
  judge_status: z.string().optional(),
  marker: markerFilter.optional(),
});
export type QueueFilters = z.infer<typeof queueFilters>;

export const queueItem = z.object({
  ordinal: z.number().int(),
  row_key: z.string(),
  scenario_id: z.string().nullable(),
  reward: z.number().nullable(),
  judge_status: z.string().nullable().optional(),
  gold_state: z.enum(['none', 'pass', 'fail']),
  /** This annotator's current label: 1, 0, or null (none). */
  my_label: z.union([z.literal(0), z.literal(1)]).nullable(),
  /** Why the queue put the row here (aimed and disagreement orders say so). */
  why: z.string().optional(),
});
export type QueueItem = z.infer<typeof queueItem>;

export const queueProgress = z.object({
  rows: z.number().int(),
  /** Rows with a gold (any annotator, or their own gold). */
  gold_rows: z.number().int(),
  /** Rows this annotator has a current label on. */
  mine: z.number().int(),
  annotators: z.array(z.object({ annotator: z.string(), labeled: z.number().int() })),
});

export const attachReport = z.object({
  labels: z.number().int(),
  matched: z.number().int(),
  unmatched: z.number().int(),
  unmatched_keys: z.array(z.string()),
  invalid: z.number().int(),
  rows_labeled: z.number().int(),
  ties: z.number().int(),
  annotators: z.array(z.string()),
  warnings: z.array(z.string()).optional(),
});

export const annotatorPair = z.object({ a: z.string(), b: z.string(), n: z.number().int(), agreement: z.number().nullable(), kappa: z.number().nullable() });

export const labelsApi = {
  'labels.append': method(
    z.object({
      dataset_id: datasetId,
      row_key: z.string().min(1, 'a row key is required (see row_key in datasets.rows)'),
      annotator: z.string().min(1).max(200),
      kind: kindInput.default('human'),
      value: z.union([z.literal(0), z.literal(1)]).nullable(),
      note: z.string().max(10_000).optional(),
    }),
    z.object({ label_id: z.number().int(), version: z.number().int() }),
    'Append a label to one row (by row_key); null withdraws the annotator\'s label; the row gold is re-derived',
  ),
  'labels.list': method(
    z.object({ dataset_id: datasetId, annotator: z.string().optional(), row_key: z.string().optional() }),
    z.object({ labels: z.array(labelRecord) }),
    'The labels of a dataset in the order they were appended, optionally of one annotator or one row',
  ),
  'labels.queue': method(
    z.object({
      dataset_id: datasetId,
      annotator: z.string().max(200).default(''),
      order: queueOrder.default('stratified'),
      filters: queueFilters.default({}),
      offset: z.number().int().min(0).default(0),
      limit: z.number().int().min(0).max(2000).default(100),
      /** The whole rows of the page's first N items too (as datasets.row gives them): the desk paints the first at once. */
      with_rows: z.number().int().min(0).max(10).default(0),
    }),
    z.object({
      items: z.array(queueItem),
      total: z.number().int(),
      progress: queueProgress,
      /** What the filters can be set to (the most common first, at most 200 each). */
      facets: z.object({ tasks: z.array(z.string()), categories: z.array(z.string()), judge_statuses: z.array(z.string()), markers: z.array(z.string()) }),
      /** False while the rows' JSON fields are still being read (a large dataset's first open): ask again later. */
      facets_ready: z.boolean(),
      /** With with_rows: the first items' rows, in the items' order. */
      rows: z.array(z.object({ ordinal: z.number().int(), row: z.record(z.string(), z.unknown()) })).optional(),
    }),
    'The labeling queue of a dataset: its rows in the asked order, filtered, with each annotator\'s progress',
  ),
  'labels.import': method(
    z
      .object({
        dataset_id: datasetId,
        /** A JSONL file of label records, or a JSON {key: label} mapping (read by the engine). */
        path: z.string().min(1).optional(),
        /** The same content sent as text (a browser). */
        text: z.string().optional(),
        annotator: z.string().min(1).max(200).optional(),
        kind: z.string().default('human'),
      })
      .refine((input) => (input.path === undefined) !== (input.text === undefined), 'give exactly one of path or text'),
    z.object({ report: attachReport, stored: z.number().int(), version: z.number().int() }),
    'Import labels in the SDK format (every key form of attach_labels); the report is attach_labels\' own',
  ),
  'labels.export': method(
    z.object({ dataset_id: datasetId, path: z.string().min(1), annotator: z.string().optional() }),
    z.object({ labels: z.number().int(), path: z.string() }),
    'Write the current labels as JSONL in the SDK label format ({key, label, annotator, kind, ts, note?})',
  ),
  'labels.summary': method(
    z.object({ dataset_id: datasetId }),
    z.object({
      annotators: z.array(z.object({ annotator: z.string(), labels: z.number().int(), pass: z.number().int(), fail: z.number().int() })),
      pairs: z.array(annotatorPair),
      rows_labeled: z.number().int(),
      multi_labeled: z.number().int(),
      disagreements: z.number().int(),
    }),
    'Per annotator counts of current labels, and Cohen\'s kappa for every pair with the rows both labeled',
  ),
} as const;
