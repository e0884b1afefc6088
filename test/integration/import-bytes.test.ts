// The same file imported by the app (streamed chunks of its bytes) and by the CLI (the engine reads the file)
// gives the same result: one byte parser, so a line that is not UTF-8 is refused with the same line number and
// message, and the rows kept with --skip-invalid are the same bytes.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../main/engine/engine';
import { readDatasetRows } from '../../main/rows/index';
import { tempDir } from '../helpers/temp';

const line = (prompt: string) => JSON.stringify({ schema_version: '1', prompt, steps: [], final_text: 'ok' });
const fileBytes = Buffer.concat([
  Buffer.from('\ufeff' + line('café 日本 😀') + '\r\n'),
  Buffer.from('{"schema_version": "1", "prompt": "caf'),
  Buffer.from([0xe9]), // Latin-1 é: not UTF-8
  Buffer.from('", "steps": [], "final_text": "ok"}\n\n'),
  Buffer.from(line('last 😀')),
]);

let engine: Engine | null = null;
afterEach(async () => {
  await engine?.close();
  engine = null;
});

async function streamed(e: Engine, skipInvalid: boolean, chunkBytes: number) {
  const { import_id } = await e.call('datasets.importBegin', { name: 'streamed', skip_invalid: skipInvalid });
  for (let at = 0; at < fileBytes.length; at += chunkBytes) {
    await e.call('datasets.importChunk', { import_id, bytes_base64: fileBytes.subarray(at, at + chunkBytes).toString('base64') });
  }
  return e.call('datasets.importEnd', { import_id });
}

describe('streamed import and file import agree', () => {
  it('refuse the same line with the same message, and keep the same rows with skip_invalid', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'mixed.jsonl');
    fs.writeFileSync(file, fileBytes);
    engine = createEngine({ dbPath: path.join(dir, 'desk.db') });

    const fromFile = await engine.call('datasets.importFile', { path: file, name: 'file', skip_invalid: false });
    expect(fromFile.dataset_id).toBeNull();
    expect(fromFile.errors).toEqual([{ line: 2, message: 'not valid UTF-8 text' }]);
    // Chunks of 5 bytes cut inside multi-byte characters and inside the bad line.
    for (const chunkBytes of [5, 64, fileBytes.length]) {
      const fromChunks = await streamed(engine, false, chunkBytes);
      expect(fromChunks).toEqual(fromFile);
    }

    const keptFromFile = await engine.call('datasets.importFile', { path: file, name: 'file', skip_invalid: true });
    const keptFromChunks = await streamed(engine, true, 5);
    expect(keptFromChunks).toEqual({ ...keptFromFile, dataset_id: keptFromChunks.dataset_id });
    expect(keptFromFile).toMatchObject({ rows_imported: 2, rows_skipped: 1 });
    const prompts = (id: string | null) => readDatasetRows(engine!.ctx.db, id as string).map((row) => row.prompt);
    expect(prompts(keptFromChunks.dataset_id)).toEqual(['café 日本 😀', 'last 😀']);
    expect(prompts(keptFromChunks.dataset_id)).toEqual(prompts(keptFromFile.dataset_id));
  });

  it('refuses a chunk with neither bytes nor text, or both', async () => {
    engine = createEngine({ dbPath: path.join(tempDir(), 'desk.db') });
    const { import_id } = await engine.call('datasets.importBegin', { name: 'x' });
    await expect(engine.call('datasets.importChunk', { import_id })).rejects.toMatchObject({ code: 'bad_input', message: expect.stringMatching(/bytes_base64 or text/) });
    await expect(engine.call('datasets.importChunk', { import_id, text: 'a', bytes_base64: 'YQ==' })).rejects.toMatchObject({ code: 'bad_input' });
    await engine.call('datasets.importAbort', { import_id });
  });
});
