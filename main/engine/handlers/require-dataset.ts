// A dataset or run named by a method's input, or the not_found error every handler gives for an unknown id.
import { ApiError } from '../../../shared/api/define';
import { findDataset } from '../../db/repos/datasets';
import type { EngineContext } from '../context';

export function requireDataset(ctx: EngineContext, id: string) {
  const dataset = findDataset(ctx.db, id);
  if (!dataset) throw new ApiError('not_found', `no dataset or run with id "${id}" (see \`while-desk datasets\`)`, 'id');
  return dataset;
}
