// Streams a file through the engine's import methods, 1 MiB at a time (never the whole file in memory).
import fs from 'node:fs';
import { isAscii } from 'node:buffer';
import { StringDecoder } from 'node:string_decoder';
import { ApiError } from '../../shared/api/define';
import type { ImportResult } from '../../shared/api/datasets';
import type { Engine } from '../engine/engine';

export interface ImportFileOptions {
  name: string;
  skipInvalid: boolean;
  onProgress?: (progress: { lines_read: number; rows_imported: number; errors: number }) => void;
}

/** UTF-8 decoding that takes the much faster latin1 path for pure-ASCII chunks (most JSONL is). */
function chunkDecoder(): (chunk: Buffer) => string {
  const utf8 = new StringDecoder('utf8');
  // An ASCII chunk cannot continue a multi-byte character, so whatever the decoder holds is flushed first.
  return (chunk) => (isAscii(chunk) ? utf8.end() + chunk.toString('latin1') : utf8.write(chunk));
}

export async function importFile(engine: Engine, file: string, options: ImportFileOptions): Promise<ImportResult> {
  if (!fs.existsSync(file)) throw new ApiError('not_found', `no such file: ${file}`, file);
  if (fs.statSync(file).isDirectory()) throw new ApiError('bad_input', `${file} is a folder, not a JSONL file`, file);
  const { import_id } = await engine.call('datasets.importBegin', { name: options.name, skip_invalid: options.skipInvalid, source: file });
  const decode = chunkDecoder();
  try {
    const stream = fs.createReadStream(file, { highWaterMark: 1 << 20 });
    for await (const chunk of stream) {
      const progress = await engine.call('datasets.importChunk', { import_id, text: decode(chunk as Buffer) });
      options.onProgress?.(progress);
    }
  } catch (error) {
    await engine.call('datasets.importAbort', { import_id });
    throw error;
  }
  return engine.call('datasets.importEnd', { import_id });
}
