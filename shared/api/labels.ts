// Labels: appended records (row key, annotator, kind, value, note, time), never updated or deleted. A row's gold
// is derived from its labels on every read, as attach_labels derives it (sdk-semantics §6).
import { z } from 'zod';
import { method } from './define';

export const labelKind = z.enum(['human', 'program', 'model']);

export const labelRecord = z.object({
  label_id: z.number().int(),
  dataset_id: z.string(),
  row_key: z.string(),
  annotator: z.string(),
  kind: labelKind,
  /** 1 pass, 0 fail, null skipped (kept, but no vote). */
  value: z.union([z.literal(0), z.literal(1)]).nullable(),
  note: z.string().nullable(),
  created_at: z.string(),
  /** created_at in epoch seconds: the `ts` stamped into gold_labels. */
  ts: z.number(),
});
export type LabelRecordOut = z.infer<typeof labelRecord>;

export const labelsApi = {
  'labels.append': method(
    z.object({
      dataset_id: z.string().min(1, 'a dataset id is required'),
      row_key: z.string().min(1, 'a row key is required (see row_key in datasets.rows)'),
      annotator: z.string().min(1).max(200),
      // 'verifier' is attach_labels' alias of 'program'.
      kind: z.preprocess((value) => (value === 'verifier' ? 'program' : value), labelKind).default('human'),
      value: z.union([z.literal(0), z.literal(1)]).nullable(),
      note: z.string().max(10_000).optional(),
    }),
    z.object({ label_id: z.number().int(), version: z.number().int() }),
    'Append a label to one row (by row_key); the row gold is re-derived, and the dataset version moves',
  ),
  'labels.list': method(
    z.object({ dataset_id: z.string().min(1, 'a dataset id is required'), annotator: z.string().optional(), row_key: z.string().optional() }),
    z.object({ labels: z.array(labelRecord) }),
    'The labels of a dataset in the order they were appended, optionally of one annotator or one row',
  ),
} as const;
