// Sends a File to the engine in 1 MiB slices of its bytes (importBegin, importChunk..., importEnd), reporting
// progress. The bytes go as they are (base64), never decoded here: the engine parses them with the same byte
// parser as a file it reads itself, so a line that is not UTF-8 is refused with the same message either way.
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

/** Base64 of bytes, in slices (String.fromCharCode takes only so many arguments at once). */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let at = 0; at < bytes.length; at += 0x8000) binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return btoa(binary);
}

export function runImport(desk: Pick<DeskClient, 'call'>, file: Blob & { name: string }, options: { name: string; skipInvalid: boolean }, onProgress: (progress: ImportProgress) => void): ImportHandle {
  let aborted = false;
  let importId: string | null = null;
  const done = (async () => {
    const begun = await desk.call('datasets.importBegin', { name: options.name, skip_invalid: options.skipInvalid, source: file.name });
    importId = begun.import_id;
    const progress: ImportProgress = { bytesSent: 0, bytesTotal: file.size, linesRead: 0, rowsImported: 0, errors: 0 };
    onProgress({ ...progress });
    for (let start = 0; start < file.size; start += CHUNK_BYTES) {
      if (aborted) throw new Error('import cancelled; nothing was imported');
      const end = Math.min(file.size, start + CHUNK_BYTES);
      const bytes = new Uint8Array(await file.slice(start, end).arrayBuffer());
      const reply = await desk.call('datasets.importChunk', { import_id: importId, bytes_base64: bytesToBase64(bytes) });
      Object.assign(progress, { bytesSent: end, linesRead: reply.lines_read, rowsImported: reply.rows_imported, errors: reply.errors });
      onProgress({ ...progress });
    }
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
