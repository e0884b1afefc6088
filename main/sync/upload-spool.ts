// The bytes of one upload, written to a temporary file before the PUT. Storage that answers as S3 does refuses a
// chunked body (501 NotImplemented) and a body of no stated length (411), so every presigned PUT states its
// Content-Length, and that needs the size before the first byte goes. Spooling reads the rows once (the gate's
// stamps and row facts included) and gives an exact length by construction; a retried PUT (a 503, a reset) sends
// the same bytes again from the file without reading the database. A counting pass over the rows instead reads
// and stamps every row twice: measured on 100k rows, it was 0.1 s faster without the gate, 0.13-0.17 s slower with
// it, and it grew resident memory more (+63-65 MB against +48 MB during an ungated upload). Memory stays flat: the
// file is written and read a chunk at a time.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomUUID } from 'node:crypto';
import { processAlive } from '../engine/process-alive';

export interface Spool {
  path: string;
  rows: number;
  bytes: number;
  /** Writes the spooled bytes to `sink` (one call per try); resolves once the last byte was handed to it. */
  writeTo(sink: Writable): Promise<void>;
  /** Removes the file; safe to call twice. */
  dispose(): void;
}

const SLOT_BYTES = 64 << 10;
const SLOTS = 4;

/**
 * Copies a file to `sink` through a few buffers used again and again: a buffer is refilled only once the sink has
 * flushed what it held (its write callback), so at most SLOTS x SLOT_BYTES are in flight. A read stream would
 * allocate a new 64 KiB buffer per chunk; an upload allocates little else, so nothing prompts a collection and
 * the spent buffers pile up (some 25 MB of a 100k-row push's resident memory).
 */
async function copyFile(file: string, sink: Writable): Promise<void> {
  const handle = await fs.promises.open(file, 'r');
  let closed = false;
  const gone = new Promise<never>((_, reject) => sink.once('close', () => ((closed = true), reject(new Error('the connection closed')))));
  gone.catch(() => undefined);
  const slots = Array.from({ length: SLOTS }, () => ({ buffer: Buffer.allocUnsafe(SLOT_BYTES), flushed: Promise.resolve() }));
  try {
    for (let turn = 0; !closed; turn++) {
      const slot = slots[turn % SLOTS];
      await Promise.race([slot.flushed, gone]);
      const { bytesRead } = await handle.read(slot.buffer, 0, SLOT_BYTES, null);
      if (bytesRead === 0) break;
      slot.flushed = new Promise<void>((resolve, reject) => sink.write(slot.buffer.subarray(0, bytesRead), (error) => (error ? reject(error) : resolve())));
      slot.flushed.catch(() => undefined);
    }
    await Promise.race([Promise.all(slots.map((slot) => slot.flushed)), gone]);
    sink.end();
  } finally {
    await handle.close();
  }
}

/** Where spools live; a file's name starts with the pid of the process that wrote it. */
export function spoolFolder(): string {
  return process.env.WHILE_DESK_SPOOL_DIR || path.join(os.tmpdir(), 'while-desk-uploads');
}

/** Spools left by a process that is gone (kill -9 mid-upload) are removed before a new one is written. */
function sweepOrphans(folder: string): void {
  for (const name of fs.readdirSync(folder)) {
    const pid = Number(/^(\d+)-/.exec(name)?.[1]);
    if (Number.isInteger(pid) && pid !== process.pid && !processAlive(pid)) fs.rmSync(path.join(folder, name), { force: true });
  }
}

/** Writes `source` (a JSONL stream that counts its rows and bytes) to a new spool file. */
export async function spoolUpload(source: Readable & { readonly rows: number; readonly bytes: number }): Promise<Spool> {
  const folder = spoolFolder();
  fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  sweepOrphans(folder);
  const file = path.join(folder, `${process.pid}-${randomUUID()}.jsonl`);
  const dispose = () => fs.rmSync(file, { force: true });
  try {
    await pipeline(source, fs.createWriteStream(file, { flags: 'wx', mode: 0o600 }));
  } catch (error) {
    dispose();
    throw error;
  }
  const bytes = fs.statSync(file).size;
  if (bytes !== source.bytes) {
    dispose();
    throw new Error(`the upload spool ${file} holds ${bytes} bytes where ${source.bytes} were written`);
  }
  return { path: file, rows: source.rows, bytes, writeTo: (sink) => copyFile(file, sink), dispose };
}
