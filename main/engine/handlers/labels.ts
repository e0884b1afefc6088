// Handlers for labels: append one (by row key), list them, the labeling queue, import/export in the SDK's label
// format, and the annotators' summary. The gold every reader sees follows from the appended records.
import fs from 'node:fs';
import { ApiError } from '../../../shared/api/define';
import type { labelsApi } from '../../../shared/api/labels';
import { exportLabels } from '../../labels/export';
import { importLabels } from '../../labels/import';
import { parseLabelText } from '../../labels/label-file';
import { buildQueue } from '../../labels/queue';
import { labelSummary } from '../../labels/summary';
import { appendLabel, ensureRowKeys, listLabels, rowsWithKey } from '../../rows/index';
import { requireDataset } from './require-dataset';
import type { HandlerMap } from './types';
import { write } from './write';

function readLabelFile(path: string): string {
  try {
    return fs.readFileSync(path, 'utf8');
  } catch (error) {
    throw new ApiError('not_found', `could not read the label file ${path}: ${error instanceof Error ? error.message : String(error)}`, path);
  }
}

export const labelsHandlers: HandlerMap<keyof typeof labelsApi> = {
  'labels.append': write((input, ctx) => {
    requireDataset(ctx, input.dataset_id);
    ensureRowKeys(ctx.db, input.dataset_id); // an imported dataset's keys, the first time it is labeled
    const owners = rowsWithKey(ctx.db, input.dataset_id, input.row_key);
    if (owners.length === 0) {
      throw new ApiError('not_found', `dataset ${input.dataset_id} has no row with row_key "${input.row_key}" (row keys are in datasets.rows: rollout_id, else scenario_id#rollout_index, else the prompt hash)`, 'row_key');
    }
    if (owners.length > 1) {
      throw new ApiError(
        'conflict',
        `row_key "${input.row_key}" names more than one row of dataset ${input.dataset_id} (rows ${owners.join(', ')}${owners.length > 2 ? ', ...' : ''}), so a label cannot say which row it belongs to; nothing was written. Give every row its own rollout_id before labeling`,
        'row_key',
      );
    }
    const { labelId, version } = appendLabel(ctx.db, {
      datasetId: input.dataset_id,
      rowKey: input.row_key,
      annotator: input.annotator,
      kind: input.kind,
      value: input.value,
      note: input.note ?? null,
    });
    return { label_id: labelId, version };
  }),
  'labels.list': (input, ctx) => {
    requireDataset(ctx, input.dataset_id);
    return { labels: listLabels(ctx.db, input.dataset_id, { annotator: input.annotator, rowKey: input.row_key }) };
  },
  'labels.queue': (input, ctx) => {
    const dataset = requireDataset(ctx, input.dataset_id);
    return buildQueue(ctx.db, {
      datasetId: input.dataset_id,
      rowCount: dataset.rows,
      annotator: input.annotator,
      order: input.order,
      filters: input.filters,
      offset: input.offset,
      limit: input.limit,
      withRows: input.with_rows,
    });
  },
  'labels.import': write((input, ctx) => {
    requireDataset(ctx, input.dataset_id);
    ensureRowKeys(ctx.db, input.dataset_id);
    const where = input.path ?? 'the label text';
    const labels = parseLabelText(input.path !== undefined ? readLabelFile(input.path) : (input.text ?? ''), where);
    return importLabels(ctx.db, input.dataset_id, labels, { annotator: input.annotator, kind: input.kind });
  }),
  'labels.export': async (input, ctx) => {
    requireDataset(ctx, input.dataset_id);
    try {
      return { labels: await exportLabels(ctx.db, input.dataset_id, input.path, input.annotator), path: input.path };
    } catch (error) {
      throw new ApiError('failed', `could not write ${input.path}: ${error instanceof Error ? error.message : String(error)}`, input.path);
    }
  },
  'labels.summary': (input, ctx) => {
    requireDataset(ctx, input.dataset_id);
    return labelSummary(ctx.db, input.dataset_id);
  },
};
