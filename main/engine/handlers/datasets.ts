// Handlers for datasets and rows.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { ApiError } from '../../../shared/api/define';
import type { datasetsApi } from '../../../shared/api/datasets';
import { deleteDataset, findDataset, listDatasets } from '../../db/repos/datasets';
import { countRows, getRowJson, pageRows, taskRowJson } from '../../db/repos/rows';
import { ImportSession } from '../../datasets/import-session';
import type { EngineContext } from '../context';
import type { HandlerMap } from './types';
import { withRunStatuses } from '../../sim/run-status';

const importSessions = new Map<string, ImportSession>();

function session(importId: string): ImportSession {
  const found = importSessions.get(importId);
  if (!found) throw new ApiError('not_found', `no import in progress with id "${importId}"`, 'import_id');
  return found;
}

export function requireDataset(ctx: EngineContext, id: string) {
  const dataset = findDataset(ctx.db, id);
  if (!dataset) throw new ApiError('not_found', `no dataset or run with id "${id}" (see \`while-desk datasets\`)`, 'id');
  return dataset;
}

export const datasetsHandlers: HandlerMap<keyof typeof datasetsApi> = {
  'datasets.list': (_input, ctx) => withRunStatuses(ctx, listDatasets(ctx.db)),
  'datasets.get': (input, ctx) => withRunStatuses(ctx, [requireDataset(ctx, input.id)])[0],
  'datasets.importBegin': (input, ctx) => {
    const importId = randomUUID();
    importSessions.set(importId, new ImportSession(ctx.db, { name: input.name, skipInvalid: input.skip_invalid, source: input.source }));
    return { import_id: importId };
  },
  'datasets.importChunk': async (input, ctx) => {
    const current = session(input.import_id);
    await current.write(input.text);
    const progress = current.progress;
    ctx.emit('import.progress', { import_id: input.import_id, ...progress });
    return progress;
  },
  'datasets.importEnd': async (input, ctx) => {
    const current = session(input.import_id);
    importSessions.delete(input.import_id);
    const result = await current.end();
    if (result.dataset_id) ctx.emit('datasets.changed', { id: result.dataset_id });
    return result;
  },
  'datasets.importFile': async (input, ctx) => {
    if (!fs.existsSync(input.path)) throw new ApiError('not_found', `no such file: ${input.path}`, input.path);
    if (fs.statSync(input.path).isDirectory()) throw new ApiError('bad_input', `${input.path} is a folder, not a JSONL file`, input.path);
    const importId = input.import_id ?? randomUUID();
    const current = new ImportSession(ctx.db, { name: input.name, skipInvalid: input.skip_invalid, source: input.path });
    try {
      await current.readFile(input.path, () => ctx.emit('import.progress', { import_id: importId, ...current.progress }));
    } catch (error) {
      await current.abort();
      throw new ApiError('failed', error instanceof Error ? error.message : String(error), input.path);
    }
    const result = await current.end();
    if (result.dataset_id) ctx.emit('datasets.changed', { id: result.dataset_id });
    return result;
  },
  'datasets.importAbort': async (input) => {
    const current = importSessions.get(input.import_id);
    if (!current) return { aborted: false };
    importSessions.delete(input.import_id);
    await current.abort();
    return { aborted: true };
  },
  'datasets.rows': (input, ctx) => {
    requireDataset(ctx, input.id);
    return {
      total: countRows(ctx.db, input.id),
      rows: pageRows(ctx.db, input.id, input.sort, input.descending, input.offset, input.limit),
    };
  },
  'datasets.row': (input, ctx) => {
    requireDataset(ctx, input.id);
    const json = getRowJson(ctx.db, input.id, input.ordinal);
    if (json === undefined) throw new ApiError('not_found', `dataset "${input.id}" has no row ${input.ordinal}`, 'ordinal');
    return { ordinal: input.ordinal, row: JSON.parse(json) as Record<string, unknown> };
  },
  'datasets.taskRows': (input, ctx) => {
    requireDataset(ctx, input.id);
    const found = taskRowJson(ctx.db, input.id, input.task, input.limit);
    return { rows: found.map((entry) => ({ ordinal: entry.ordinal, row: JSON.parse(entry.row_json) as Record<string, unknown> })) };
  },
  'datasets.delete': (input, ctx) => {
    const deleted = deleteDataset(ctx.db, input.id);
    if (deleted) ctx.emit('datasets.changed', { id: input.id });
    return { deleted };
  },
};
