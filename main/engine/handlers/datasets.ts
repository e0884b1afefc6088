// Handlers for datasets and rows. Every one that writes is declared through write()/writeAsync() (write.ts),
// which publishes the change events after the commit.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { ApiError } from '../../../shared/api/define';
import type { datasetsApi } from '../../../shared/api/datasets';
import { childDatasets, findDataset, listDatasets } from '../../db/repos/datasets';
import { countRows, deleteDataset, exportDataset, exportLines, getRow, markerNames, markerOrdinals, pageRows, stampDatasetMarkers, taskRows } from '../../rows/index';
import { ImportSession } from '../../datasets/import-session';
import { withRunStatuses } from '../../sim/run-status';
import { datasetVersion } from '../../db/changes';
import { requireDataset } from './require-dataset';
import type { HandlerMap } from './types';
import { write, writeAsync } from './write';

const importSessions = new Map<string, ImportSession>();

function session(importId: string): ImportSession {
  const found = importSessions.get(importId);
  if (!found) throw new ApiError('not_found', `no import in progress with id "${importId}"`, 'import_id');
  return found;
}


export const datasetsHandlers: HandlerMap<keyof typeof datasetsApi> = {
  'datasets.list': (_input, ctx) => withRunStatuses(ctx, listDatasets(ctx.db)),
  'datasets.get': (input, ctx) => withRunStatuses(ctx, [requireDataset(ctx, input.id)])[0],
  'datasets.importBegin': write((input, ctx) => {
    const importId = randomUUID();
    importSessions.set(importId, new ImportSession(ctx.db, { name: input.name, skipInvalid: input.skip_invalid, source: input.source }));
    return { import_id: importId };
  }),
  'datasets.importChunk': writeAsync(async (input, ctx) => {
    const current = session(input.import_id);
    await current.write(input.bytes_base64 !== undefined ? Buffer.from(input.bytes_base64, 'base64') : (input.text ?? ''));
    const progress = current.progress;
    ctx.emit('import.progress', { import_id: input.import_id, ...progress });
    return progress;
  }),
  'datasets.importEnd': writeAsync(async (input) => {
    const current = session(input.import_id);
    importSessions.delete(input.import_id);
    return current.end();
  }),
  'datasets.importFile': writeAsync(async (input, ctx) => {
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
    return current.end();
  }),
  'datasets.importAbort': writeAsync(async (input) => {
    const current = importSessions.get(input.import_id);
    if (!current) return { aborted: false };
    importSessions.delete(input.import_id);
    await current.abort();
    return { aborted: true };
  }),
  'datasets.rows': (input, ctx) => {
    requireDataset(ctx, input.id);
    const marked = input.marker ? markerOrdinals(ctx.db, input.id, input.marker.name, input.marker.value === 1 ? '1' : '0') : undefined;
    return {
      total: marked ? marked.size : countRows(ctx.db, input.id),
      rows: pageRows(ctx.db, input.id, input.sort, input.descending, input.offset, input.limit, marked),
    };
  },
  'datasets.markerNames': (input, ctx) => {
    requireDataset(ctx, input.id);
    return { names: markerNames(ctx.db, input.id) };
  },
  'datasets.row': (input, ctx) => {
    requireDataset(ctx, input.id);
    const found = getRow(ctx.db, input.id, input.ordinal);
    if (!found) throw new ApiError('not_found', `dataset "${input.id}" has no row ${input.ordinal}`, 'ordinal');
    return { ordinal: input.ordinal, row: found.row };
  },
  'datasets.taskRows': (input, ctx) => {
    requireDataset(ctx, input.id);
    return { rows: taskRows(ctx.db, input.id, input.task, input.limit) };
  },
  'datasets.export': async (input, ctx) => {
    requireDataset(ctx, input.id);
    try {
      return { rows: await exportDataset(ctx.db, input.id, input.path), path: input.path };
    } catch (error) {
      throw new ApiError('failed', `could not write ${input.path}: ${error instanceof Error ? error.message : String(error)}`, input.path);
    }
  },
  'datasets.exportText': (input, ctx) => {
    const dataset = requireDataset(ctx, input.id);
    const { text, rows } = exportLines(ctx.db, input.id, input.offset, input.limit);
    return { text, rows, done: input.offset + rows >= dataset.rows };
  },
  'datasets.stampMarkers': write((input, ctx) => {
    const dataset = requireDataset(ctx, input.id);
    // Rows still being written (an import, a run, a grade) would be stamped half-way.
    if (['importing', 'running', 'grading'].includes(dataset.status)) throw new ApiError('conflict', `dataset ${input.id} is ${dataset.status}; stamp its markers once it is ready`, input.id);
    const { rows, stamped } = stampDatasetMarkers(ctx.db, input.id);
    return { rows, stamped, version: datasetVersion(ctx.db, input.id) ?? 0 };
  }),
  'datasets.delete': write((input, ctx) => {
    if (!findDataset(ctx.db, input.id)) return { deleted: false, deleted_ids: [] };
    const copies = childDatasets(ctx.db, input.id);
    if (copies.length > 0 && !input.with_copies) {
      const named = copies.map((copy) => `${copy.id} ("${copy.name}")`).join(', ');
      throw new ApiError(
        'conflict',
        `dataset ${input.id} has ${copies.length} graded ${copies.length === 1 ? 'copy' : 'copies'}: ${named}; delete ${copies.length === 1 ? 'it' : 'them'} first, or delete with --with-copies (with_copies) to remove them too`,
        input.id,
        { copies: copies.map((copy) => copy.id) },
      );
    }
    const deletedIds = deleteDataset(ctx.db, input.id, { withCopies: input.with_copies });
    return { deleted: deletedIds.includes(input.id), deleted_ids: deletedIds };
  }),
};
