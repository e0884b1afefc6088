// Sends a File to the engine in 1 MiB slices (importBegin, importChunk..., importEnd), reporting progress.
import type { ImportResult } from '../../../shared/api/datasets';
import type { DeskClient } from '../../../shared/api/client';

export const CHUNK_BYTES = 1024 * 1024;

export interface ImportProgress {
  bytesSent: number;
  bytesTotal: number;
  linesRead: number;
  rowsImported: number;
  errors: number;
}

export interface ImportHandle {
  done: Promise<ImportResult>;
  abort(): void;
}

export function datasetNameFor(fileName: string): string {
  const stem = fileName.replace(/\.(jsonl|ndjson|json|txt)$/i, '').trim();
  return (stem || 'imported rows').slice(0, 200);
}

export function runImport(desk: Pick<DeskClient, 'call'>, file: Blob & { name: string }, options: { name: string; skipInvalid: boolean }, onProgress: (progress: ImportProgress) => void): ImportHandle {
  let aborted = false;
  let importId: string | null = null;
  const done = (async () => {
    const begun = await desk.call('datasets.importBegin', { name: options.name, skip_invalid: options.skipInvalid, source: file.name });
    importId = begun.import_id;
    // Bytes, not characters: a multi-byte character split between two slices is joined by the streaming decoder.
    const decoder = new TextDecoder('utf-8');
    const progress: ImportProgress = { bytesSent: 0, bytesTotal: file.size, linesRead: 0, rowsImported: 0, errors: 0 };
    onProgress({ ...progress });
    for (let start = 0; start < file.size; start += CHUNK_BYTES) {
      if (aborted) throw new Error('import cancelled; nothing was imported');
      const end = Math.min(file.size, start + CHUNK_BYTES);
      const bytes = await file.slice(start, end).arrayBuffer();
      const text = decoder.decode(bytes, { stream: end < file.size });
      const reply = await desk.call('datasets.importChunk', { import_id: importId, text });
      Object.assign(progress, { bytesSent: end, linesRead: reply.lines_read, rowsImported: reply.rows_imported, errors: reply.errors });
      onProgress({ ...progress });
    }
    const tail = decoder.decode();
    if (tail) await desk.call('datasets.importChunk', { import_id: importId, text: tail });
    if (aborted) throw new Error('import cancelled; nothing was imported');
    return desk.call('datasets.importEnd', { import_id: importId });
  })();
  done.catch(() => {
    if (importId) void desk.call('datasets.importAbort', { import_id: importId }).catch(() => undefined);
  });
  return {
    done,
    abort() {
      aborted = true;
    },
  };
}
