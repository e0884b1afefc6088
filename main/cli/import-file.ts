// `while-desk import`: the engine reads the file itself, in its import worker, 1 MiB at a time
// (never the whole file in memory), while the engine thread writes the rows.
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { ImportResult } from '../../shared/api/datasets';
import type { Engine } from '../engine/index';

export interface ImportFileOptions {
  name: string;
  skipInvalid: boolean;
  onProgress?: (progress: { lines_read: number; rows_imported: number; errors: number }) => void;
}

export async function importFile(engine: Engine, file: string, options: ImportFileOptions): Promise<ImportResult> {
  const importId = randomUUID();
  const stop = engine.on('import.progress', (progress) => progress.import_id === importId && options.onProgress?.(progress));
  try {
    return await engine.call('datasets.importFile', { path: path.resolve(file), name: options.name, skip_invalid: options.skipInvalid, import_id: importId });
  } finally {
    stop();
  }
}
