// Model discovery in a temporary home with LM Studio and Ollama layouts, and the models API over a real database.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../../main/engine/engine';
import { findModelFiles } from '../../../main/agents/llama/model-files';
import { buildTinyGguf } from '../../fixtures/make-tiny-gguf.mjs';

const home = fs.mkdtempSync(path.join(os.tmpdir(), 'while-home-'));
afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

function put(relative: string, bytes: Buffer | string): string {
  const file = path.join(home, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, bytes);
  return file;
}

function ollamaModel(name: string, tag: string, bytes: Buffer, namespace = 'library'): string {
  const digest = createHash('sha256').update(bytes).digest('hex');
  const blob = put(`.ollama/models/blobs/sha256-${digest}`, bytes);
  const manifest = {
    schemaVersion: 2,
    config: { mediaType: 'application/vnd.docker.container.image.v1+json', digest: `sha256:${'0'.repeat(64)}` },
    layers: [
      { mediaType: 'application/vnd.ollama.image.template', digest: `sha256:${'1'.repeat(64)}`, size: 10 },
      { mediaType: 'application/vnd.ollama.image.model', digest: `sha256:${digest}`, size: bytes.length },
    ],
  };
  put(`.ollama/models/manifests/registry.ollama.ai/${namespace}/${name}/${tag}`, JSON.stringify(manifest));
  return blob;
}

const q4 = buildTinyGguf({ fileType: 15, seed: 1 });
const q8 = buildTinyGguf({ fileType: 7, seed: 2 });
const f32 = buildTinyGguf({ seed: 3 });
const lmFile = put('.lmstudio/models/acme/tiny-GGUF/tiny-Q4_K_M.gguf', q4);
put('.lmstudio/models/acme/tiny-GGUF/notes.txt', 'not a model');
put('.lmstudio/models/acme/tiny-GGUF/.hidden/secret.gguf', q4);
const cacheFile = put('.cache/lm-studio/models/other/m/m-Q8_0.gguf', q8);
const splitFirst = put('.lmstudio/models/acme/big/big-00001-of-00002.gguf', f32);
put('.lmstudio/models/acme/big/big-00002-of-00002.gguf', Buffer.alloc(1000));
const ollamaBlob = ollamaModel('tiny', 'latest', q8);
ollamaModel('tiny', 'q4', q4, 'someone');
put('.ollama/models/manifests/registry.ollama.ai/library/broken/latest', '{not json');
const extra = path.join(home, 'my-models');
const extraFile = put('my-models/deep/er/custom.gguf', f32);
put('my-models/cut.gguf', f32.subarray(0, 100));

describe('findModelFiles', () => {
  const models = findModelFiles({ home, env: {}, extraFolders: [extra] });
  const byPath = new Map(models.map((model) => [model.path, model]));

  it('lists LM Studio models (both folders) with name, size and quantization', () => {
    expect(byPath.get(lmFile)).toEqual({
      path: lmFile,
      name: 'acme/tiny-GGUF/tiny-Q4_K_M',
      size_bytes: q4.length,
      quantization: 'Q4_K_M',
      architecture: 'llama',
      source: 'lmstudio',
      problem: null,
    });
    expect(byPath.get(cacheFile)).toMatchObject({ name: 'other/m/m-Q8_0', quantization: 'Q8_0', source: 'lmstudio' });
  });

  it('lists a split model once, with the size of all its parts', () => {
    expect(byPath.get(splitFirst)).toMatchObject({ size_bytes: f32.length + 1000, quantization: 'F32' });
    expect(models.some((model) => model.path.includes('00002-of'))).toBe(false);
  });

  it('names Ollama blobs from their manifests and skips broken manifests', () => {
    expect(byPath.get(ollamaBlob)).toMatchObject({ name: 'tiny:latest', source: 'ollama', quantization: 'Q8_0', size_bytes: q8.length });
    expect(models.find((model) => model.name === 'someone/tiny:q4')).toMatchObject({ quantization: 'Q4_K_M', source: 'ollama' });
    expect(models.some((model) => model.name.startsWith('broken'))).toBe(false);
  });

  it('searches added folders deeply, skips hidden folders, and reports unreadable files', () => {
    expect(byPath.get(extraFile)).toMatchObject({ name: 'deep/er/custom', source: 'folder', quantization: 'F32' });
    expect(models.find((model) => model.name === 'cut')).toMatchObject({ quantization: null, problem: expect.stringMatching(/truncated|ends inside/) });
    expect(models.some((model) => model.path.includes('.hidden'))).toBe(false);
    expect(models).toHaveLength(7);
  });

  it('lists a file once when an added folder overlaps a known one, and follows OLLAMA_MODELS', () => {
    const again = findModelFiles({ home, env: {}, extraFolders: [path.join(home, '.lmstudio', 'models')] });
    expect(again.filter((model) => model.path === lmFile)).toHaveLength(1);
    const elsewhere = findModelFiles({ home: path.join(home, 'nobody'), env: { OLLAMA_MODELS: path.join(home, '.ollama', 'models') } });
    expect(elsewhere.map((model) => model.name).sort()).toEqual(['someone/tiny:q4', 'tiny:latest']);
  });

  it('finds nothing in an empty home', () => {
    expect(findModelFiles({ home: path.join(home, 'empty'), env: {} })).toEqual([]);
  });
});

describe('models API', () => {
  it('adds, lists and removes model folders, stored in the settings table', async () => {
    const dbPath = path.join(home, 'db', 'desk.db');
    const engine = createEngine({ dbPath });
    try {
      expect(await engine.call('models.folders', {})).toEqual({ folders: [] });
      expect(await engine.call('models.addFolder', { path: extra })).toEqual({ folders: [extra] });
      expect(await engine.call('models.addFolder', { path: `${extra}/` })).toEqual({ folders: [extra] });
      await expect(engine.call('models.addFolder', { path: path.join(home, 'nope') })).rejects.toMatchObject({ code: 'not_found' });
      await expect(engine.call('models.addFolder', { path: extraFile })).rejects.toMatchObject({ code: 'bad_input' });
      await expect(engine.call('models.addFolder', { path: '' })).rejects.toMatchObject({ code: 'bad_input' });
      const listed = await engine.call('models.list', {});
      expect(listed.find((model) => model.path === extraFile)).toMatchObject({ source: 'folder' });
    } finally {
      await engine.close();
    }
    const reopened = createEngine({ dbPath });
    try {
      expect(await reopened.call('models.folders', {})).toEqual({ folders: [extra] });
      expect(await reopened.call('models.removeFolder', { path: extra })).toEqual({ folders: [], removed: true });
      expect(await reopened.call('models.removeFolder', { path: extra })).toEqual({ folders: [], removed: false });
      const listed = await reopened.call('models.list', { extra_folders: [extra] });
      expect(listed.some((model) => model.path === extraFile)).toBe(true);
    } finally {
      await reopened.close();
    }
  });
});
