// The GGUF header reader on real files from the tiny-model writer, and on broken ones.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GgufHeaderError, metaNumber, metaString, readGgufHeader } from '../../../main/agents/llama/gguf-header';
import { architectureOf, missingTensorData, quantizationOf } from '../../../main/agents/llama/gguf-info';
import { buildTinyGguf } from '../../fixtures/make-tiny-gguf.mjs';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'while-gguf-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function write(name: string, bytes: Buffer | string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  return file;
}

describe('readGgufHeader', () => {
  const bytes = buildTinyGguf();
  const file = write('tiny.gguf', bytes);

  it('reads the metadata and tensor infos of the tiny model', () => {
    const header = readGgufHeader(file);
    expect(header.version).toBe(3);
    expect(architectureOf(header)).toBe('llama');
    expect(metaString(header, 'tokenizer.ggml.model')).toBe('llama');
    expect(metaNumber(header, 'llama.embedding_length')).toBe(64);
    expect(metaNumber(header, 'llama.feed_forward_length')).toBe(128);
    expect(metaNumber(header, 'llama.attention.head_count')).toBe(4);
    expect(metaNumber(header, 'llama.block_count')).toBe(2);
    const tokens = header.metadata.get('tokenizer.ggml.tokens');
    expect(tokens).toMatchObject({ array: 8, length: 260 });
    expect(header.tensors).toHaveLength(3 + 2 * 9);
    expect(header.tensors[0]).toMatchObject({ name: 'token_embd.weight', dims: [64, 260], type: 0 });
    expect(header.dataOffset % 32).toBe(0);
    expect(header.fileSize).toBe(bytes.length);
    expect(missingTensorData(header)).toBeNull();
  });

  it('names the quantization from general.file_type, else from the tensor types', () => {
    expect(quantizationOf(readGgufHeader(file))).toBe('F32');
    expect(quantizationOf(readGgufHeader(write('q4km.gguf', buildTinyGguf({ fileType: 15 }))))).toBe('Q4_K_M');
    expect(quantizationOf(readGgufHeader(write('q8.gguf', buildTinyGguf({ fileType: 7 }))))).toBe('Q8_0');
    const untyped = readGgufHeader(write('untyped.gguf', buildTinyGguf({ omitKeys: ['general.file_type'] })));
    expect(untyped.metadata.has('general.file_type')).toBe(false);
    expect(quantizationOf(untyped)).toBe('F32');
  });

  it('finds truncated tensor data without reading it', () => {
    const header = readGgufHeader(write('cut.gguf', bytes.subarray(0, bytes.length - 1000)));
    expect(missingTensorData(header)).toMatch(/truncated/);
  });

  it('refuses files that are not GGUF, too short, cut inside the header, or of another version', () => {
    expect(() => readGgufHeader(write('text.gguf', 'hello, this is a text file and not a model at all'))).toThrow(/not a GGUF/);
    expect(() => readGgufHeader(write('short.gguf', 'GGUF'))).toThrow(/too small/);
    expect(() => readGgufHeader(write('header-cut.gguf', bytes.subarray(0, 300)))).toThrow(/truncated|ends inside the header/);
    const v9 = Buffer.from(bytes);
    v9.writeUInt32LE(9, 4);
    expect(() => readGgufHeader(write('v9.gguf', v9))).toThrow(/version 9/);
    expect(() => readGgufHeader(path.join(dir, 'missing.gguf'))).toThrow(GgufHeaderError);
  });

  it('refuses absurd counts instead of allocating for them', () => {
    const huge = Buffer.from(bytes);
    huge.writeBigUInt64LE(1n << 40n, 8);
    expect(() => readGgufHeader(write('huge.gguf', huge))).toThrow(/tensor count .* corrupt/);
  });

  it('names the file in its errors', () => {
    const bad = write('named.gguf', 'not a model file, long enough to read');
    expect(() => readGgufHeader(bad)).toThrow(bad);
  });
});
