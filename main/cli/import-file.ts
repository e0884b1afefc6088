// Streams a file through the engine's import methods, 1 MiB at a time (never the whole file in memory).
import fs from 'node:fs';
import { ApiError } from '../../shared/api/define';
import type { ImportResult } from '../../shared/api/datasets';
import type { Engine } from '../engine/engine';

export interface ImportFileOptions {
  name: string;
  skipInvalid: boolean;
  onProgress?: (progress: { lines_read: number; rows_imported: number; errors: number }) => void;
}

export async function importFile(engine: Engine, file: string, options: ImportFileOptions): Promise<ImportResult> {
  if (!fs.existsSync(file)) throw new ApiError('not_found', `no such file: ${file}`, file);
  const { import_id } = await engine.call('datasets.importBegin', { name: options.name, skip_invalid: options.skipInvalid, source: file });
  try {
    const stream = fs.createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 });
    for await (const chunk of stream) {
      const progress = await engine.call('datasets.importChunk', { import_id, text: chunk as string });
      options.onProgress?.(progress);
    }
  } catch (error) {
    await engine.call('datasets.importAbort', { import_id });
    throw error;
  }
  return engine.call('datasets.importEnd', { import_id });
}
