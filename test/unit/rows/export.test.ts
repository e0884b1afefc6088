// datasets.export writes atomically: a file that cannot be written leaves nothing behind, and an export over an
// existing file replaces it only once complete. Unlabeled rows come back byte for byte.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../../main/engine/engine';
import { tempDir } from '../../helpers/temp';

let engine: Engine | null = null;
afterEach(async () => {
  await engine?.close();
  engine = null;
});

describe('datasets.export', () => {
  it('writes the stored lines byte for byte, replaces a file only when done, and leaves no partial file on failure', async () => {
    const dir = tempDir();
    engine = createEngine({ dbPath: path.join(dir, 'desk.db') });
    const lines = ['{"schema_version":"1","prompt":"caf\u00e9","steps":[],"final_text":"a",  "reward":1}', '{"schema_version": "1", "prompt": "b", "steps": [], "final_text": "b", "privileged": {"reference": "secret"}}'];
    const file = path.join(dir, 'in.jsonl');
    fs.writeFileSync(file, lines.join('\n') + '\n');
    const id = (await engine.call('datasets.importFile', { path: file, name: 'x' })).dataset_id as string;

    const out = path.join(dir, 'out.jsonl');
    fs.writeFileSync(out, 'old content\n');
    expect(await engine.call('datasets.export', { id, path: out })).toEqual({ rows: 2, path: out });
    expect(fs.readFileSync(out, 'utf8')).toBe(`${lines[0]}\n${JSON.stringify({ schema_version: '1', prompt: 'b', steps: [], final_text: 'b' })}\n`);
    expect(fs.existsSync(`${out}.partial`)).toBe(false);

    const nowhere = path.join(dir, 'no-such-folder', 'out.jsonl');
    await expect(engine.call('datasets.export', { id, path: nowhere })).rejects.toMatchObject({ code: 'failed', message: expect.stringContaining(nowhere) });
    expect(fs.existsSync(path.dirname(nowhere))).toBe(false);
    await expect(engine.call('datasets.export', { id: 'ds-none', path: out })).rejects.toMatchObject({ code: 'not_found' });
  });
});
