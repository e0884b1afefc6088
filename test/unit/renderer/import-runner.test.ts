// The renderer's chunked import: 1 MiB slices, characters split across slices rejoined, the file sent whole.
import { describe, expect, it } from 'vitest';
import { CHUNK_BYTES, datasetNameFor, runImport, type ImportProgress } from '../../../renderer/src/store/import-runner';

function fakeEngine() {
  const chunks: string[] = [];
  const calls: string[] = [];
  return {
    chunks,
    calls,
    call: async (method: string, input: unknown): Promise<never> => {
      calls.push(method);
      if (method === 'datasets.importBegin') return { import_id: 'imp-1' } as never;
      if (method === 'datasets.importChunk') {
        chunks.push((input as { text: string }).text);
        return { lines_read: chunks.join('').split('\n').length - 1, rows_imported: 0, errors: 0 } as never;
      }
      if (method === 'datasets.importEnd') return { dataset_id: 'ds-1', rows_imported: 0, rows_skipped: 0, errors: [] } as never;
      return { aborted: true } as never;
    },
  };
}

describe('runImport', () => {
  it('sends a multi-slice file in order, rejoining a multi-byte character cut by a slice boundary', async () => {
    const line = JSON.stringify({ prompt: 'café ✓ 日本 😀', schema_version: '1' }) + '\n';
    // The first slice ends one byte into a 4-byte emoji, so the decoder must carry the rest over.
    const head = 'a'.repeat(CHUNK_BYTES - 1) + '😀\n';
    const text = head + line.repeat(Math.ceil((1.5 * CHUNK_BYTES) / Buffer.byteLength(line)));
    expect(Buffer.from(text).subarray(CHUNK_BYTES - 1, CHUNK_BYTES + 3).toString()).toBe('😀');
    const file = Object.assign(new Blob([text]), { name: 'rows.jsonl' });
    const engine = fakeEngine();
    const seen: ImportProgress[] = [];
    const result = await runImport(engine, file, { name: 'rows', skipInvalid: false }, (p) => seen.push(p)).done;
    expect(result.dataset_id).toBe('ds-1');
    expect(engine.chunks.length).toBe(3);
    expect(engine.chunks.join('')).toBe(text);
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

  it('names a dataset after its file', () => {
    expect(datasetNameFor('runs-2026.jsonl')).toBe('runs-2026');
    expect(datasetNameFor('.jsonl')).toBe('imported rows');
  });
});
