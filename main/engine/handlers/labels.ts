// Handlers for labels: append one (by row key), list them. The gold every reader sees follows from these.
import { ApiError } from '../../../shared/api/define';
import type { labelsApi } from '../../../shared/api/labels';
import { appendLabel, ensureRowKeys, listLabels, rowsWithKey } from '../../rows/index';
import { requireDataset } from './datasets';
import type { HandlerMap } from './types';
import { write } from './write';

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
};
