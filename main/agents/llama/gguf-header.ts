// Reads a GGUF file's header (metadata and tensor infos) in small buffered reads, never the whole file.
import fs from 'node:fs';

export class GgufHeaderError extends Error {
  constructor(readonly file: string, message: string) {
    super(`${file}: ${message}`);
    this.name = 'GgufHeaderError';
  }
}

export type GgufValue = string | number | bigint | boolean | { array: number; length: number; items?: GgufValue[] };

export interface GgufTensorInfo {
  name: string;
  dims: number[];
  type: number;
  offset: bigint;
}

export interface GgufHeader {
  version: number;
  metadata: Map<string, GgufValue>;
  tensors: GgufTensorInfo[];
  /** Where tensor data starts (after the aligned header). */
  dataOffset: number;
  fileSize: number;
}

const LIMITS = { kv: 100_000, tensors: 1_000_000, string: 16 * 1024 * 1024, dims: 4, keepItems: 64 };
const SCALAR_SIZE: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };

/** Sequential reader over a file descriptor with a 1 MiB window. */
class Cursor {
  private buf = Buffer.alloc(0);
  private bufStart = 0;
  pos = 0;
  constructor(private readonly fd: number, readonly size: number, private readonly file: string) {}

  private need(n: number): Buffer {
    if (this.pos + n > this.size) throw new GgufHeaderError(this.file, `ends inside the header at byte ${this.size} (needed ${n} more bytes at ${this.pos}); the file is truncated or not a GGUF model`);
    const rel = this.pos - this.bufStart;
    if (rel < 0 || rel + n > this.buf.length) {
      this.buf = Buffer.alloc(Math.max(n, 1 << 20));
      const read = fs.readSync(this.fd, this.buf, 0, this.buf.length, this.pos);
      this.buf = this.buf.subarray(0, read);
      this.bufStart = this.pos;
    }
    const start = this.pos - this.bufStart;
    this.pos += n;
    return this.buf.subarray(start, start + n);
  }
  skip(n: number): void {
    if (this.pos + n > this.size) this.need(n);
    this.pos += n;
  }
  u8 = () => this.need(1).readUInt8(0);
  u32 = () => this.need(4).readUInt32LE(0);
  u64(): bigint {
    return this.need(8).readBigUInt64LE(0);
  }
  count(what: string, limit: number): number {
    const value = this.u64();
    if (value > BigInt(limit)) throw new GgufHeaderError(this.file, `${what} is ${value} at byte ${this.pos - 8}, more than ${limit}; the header is corrupt`);
    return Number(value);
  }
  string(): string {
    const length = this.count('a string length', LIMITS.string);
    return this.need(length).toString('utf8');
  }
  scalar(type: number): string | number | bigint | boolean {
    const b = this.need(SCALAR_SIZE[type]);
    switch (type) {
      case 0: return b.readUInt8(0);
      case 1: return b.readInt8(0);
      case 2: return b.readUInt16LE(0);
      case 3: return b.readInt16LE(0);
      case 4: return b.readUInt32LE(0);
      case 5: return b.readInt32LE(0);
      case 6: return b.readFloatLE(0);
      case 7: return b.readUInt8(0) !== 0;
      case 10: return b.readBigUInt64LE(0);
      case 11: return b.readBigInt64LE(0);
      default: return b.readDoubleLE(0);
    }
  }
}

function readValue(cursor: Cursor, type: number, file: string, depth = 0): GgufValue {
  if (type === 8) return cursor.string();
  if (type in SCALAR_SIZE) return cursor.scalar(type);
  if (type !== 9 || depth > 2) throw new GgufHeaderError(file, `unknown metadata value type ${type} at byte ${cursor.pos - 4}`);
  const itemType = cursor.u32();
  const length = cursor.count('an array length', 1 << 30);
  if (itemType in SCALAR_SIZE && length > LIMITS.keepItems) {
    cursor.skip(length * SCALAR_SIZE[itemType]);
    return { array: itemType, length };
  }
  const items: GgufValue[] = [];
  for (let i = 0; i < length; i++) {
    const item = readValue(cursor, itemType, file, depth + 1);
    if (i < LIMITS.keepItems) items.push(item);
  }
  return { array: itemType, length, items: length <= LIMITS.keepItems ? items : undefined };
}

/** Reads the header of a GGUF v2/v3 file; throws GgufHeaderError naming the file and byte on anything malformed. */
export function readGgufHeader(file: string): GgufHeader {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (error) {
    throw new GgufHeaderError(file, `cannot open: ${(error as Error).message}`);
  }
  try {
    const size = fs.fstatSync(fd).size;
    const cursor = new Cursor(fd, size, file);
    if (size < 24) throw new GgufHeaderError(file, `is ${size} bytes, too small for a GGUF header`);
    const magic = cursor.u32();
    if (magic !== 0x46554747) throw new GgufHeaderError(file, 'does not start with "GGUF": not a GGUF model file');
    const version = cursor.u32();
    if (version < 2 || version > 3) throw new GgufHeaderError(file, `has GGUF version ${version}; only versions 2 and 3 are supported`);
    const tensorCount = cursor.count('the tensor count', LIMITS.tensors);
    const kvCount = cursor.count('the metadata count', LIMITS.kv);
    const metadata = new Map<string, GgufValue>();
    for (let i = 0; i < kvCount; i++) {
      const key = cursor.string();
      metadata.set(key, readValue(cursor, cursor.u32(), file));
    }
    const tensors: GgufTensorInfo[] = [];
    for (let i = 0; i < tensorCount; i++) {
      const name = cursor.string();
      const nDims = cursor.u32();
      if (nDims > LIMITS.dims) throw new GgufHeaderError(file, `tensor "${name}" has ${nDims} dimensions (at most ${LIMITS.dims})`);
      const dims: number[] = [];
      for (let d = 0; d < nDims; d++) dims.push(Number(cursor.u64()));
      tensors.push({ name, dims, type: cursor.u32(), offset: cursor.u64() });
    }
    const alignmentValue = metadata.get('general.alignment');
    const alignment = typeof alignmentValue === 'number' && alignmentValue > 0 ? alignmentValue : 32;
    const dataOffset = Math.ceil(cursor.pos / alignment) * alignment;
    return { version, metadata, tensors, dataOffset, fileSize: size };
  } finally {
    fs.closeSync(fd);
  }
}

export function metaString(header: GgufHeader, key: string): string | undefined {
  const value = header.metadata.get(key);
  return typeof value === 'string' ? value : undefined;
}

export function metaNumber(header: GgufHeader, key: string): number | undefined {
  const value = header.metadata.get(key);
  return typeof value === 'number' ? value : typeof value === 'bigint' ? Number(value) : undefined;
}
