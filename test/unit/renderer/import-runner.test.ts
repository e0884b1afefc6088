// The renderer's chunked import: 1 MiB slices of the file's bytes (base64), sent whole and unchanged.
import { describe, expect, it } from 'vitest';
import { CHUNK_BYTES, datasetNameFor, runImport, type ImportProgress } from '../../../renderer/src/store/import-runner';

function fakeEngine() {
  const chunks: Buffer[] = [];
  const calls: string[] = [];
  return {
    chunks,
    calls,
    call: async (method: string, input: unknown): Promise<never> => {
      calls.push(method);
      if (method === 'datasets.importBegin') return { import_id: 'imp-1' } as never;
      if (method === 'datasets.importChunk') {
        chunks.push(Buffer.from((input as { bytes_base64: string }).bytes_base64, 'base64'));
        return { lines_read: Buffer.concat(chunks).toString('latin1').split('\n').length - 1, rows_imported: 0, errors: 0 } as never;
      }
      if (method === 'datasets.importEnd') return { dataset_id: 'ds-1', rows_imported: 0, rows_skipped: 0, errors: [] } as never;
      return { aborted: true } as never;
    },
  };
}

describe('runImport', () => {
  it('sends a multi-slice file in order as bytes, a multi-byte character cut by a slice boundary included', async () => {
    const line = JSON.stringify({ prompt: 'café ✓ 日本 😀', schema_version: '1' }) + '\n';
    // The first slice ends one byte into a 4-byte emoji: the bytes go as they are, the engine joins the line.
    const head = 'a'.repeat(CHUNK_BYTES - 1) + '😀\n';
    const text = head + line.repeat(Math.ceil((1.5 * CHUNK_BYTES) / Buffer.byteLength(line)));
    expect(Buffer.from(text).subarray(CHUNK_BYTES - 1, CHUNK_BYTES + 3).toString()).toBe('😀');
    const file = Object.assign(new Blob([text]), { name: 'rows.jsonl' });
    const engine = fakeEngine();
    const seen: ImportProgress[] = [];
    const result = await runImport(engine, file, { name: 'rows', skipInvalid: false }, (p) => seen.push(p)).done;
    expect(result.dataset_id).toBe('ds-1');
    expect(engine.chunks.length).toBe(Math.ceil(file.size / CHUNK_BYTES));
    expect(engine.chunks[0].length).toBe(CHUNK_BYTES);
    expect(Buffer.concat(engine.chunks).equals(Buffer.from(text))).toBe(true);
    expect(engine.calls[0]).toBe('datasets.importBegin');
    expect(engine.calls.at(-1)).toBe('datasets.importEnd');
    expect(seen.at(-1)).toMatchObject({ bytesSent: file.size, bytesTotal: file.size });
  });

  it('aborts the import on the engine when cancelled', async () => {
    const file = Object.assign(new Blob(['x'.repeat(3 * CHUNK_BYTES)]), { name: 'big.jsonl' });
    const engine = fakeEngine();
    const handle = runImport(engine, file, { name: 'big', skipInvalid: false }, () => handle.abort());
    await expect(handle.done).rejects.toThrow(/cancelled; nothing was imported/);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(engine.calls).toContain('datasets.importAbort');
    expect(engine.calls).not.toContain('datasets.importEnd');
  });

  it('sends bytes that are not UTF-8 unchanged (the engine refuses that line, as it does for a file)', async () => {
    const bytes = Buffer.concat([Buffer.from('{"prompt": "ok"}\n{"prompt": "'), Buffer.from([0xff, 0xfe]), Buffer.from('"}\n')]);
    const file = Object.assign(new Blob([bytes]), { name: 'bad.jsonl' });
    const engine = fakeEngine();
    await runImport(engine, file, { name: 'bad', skipInvalid: false }, () => undefined).done;
    expect(Buffer.concat(engine.chunks).equals(bytes)).toBe(true);
  });

  it('names a dataset after its file', () => {
    expect(datasetNameFor('runs-2026.jsonl')).toBe('runs-2026');
    expect(datasetNameFor('.jsonl')).toBe('imported rows');
  });
});
