// A parse worker of an import: reading, decoding, JSON parsing and validation run here while the engine thread
// writes to SQLite. Its unit of work is one block of whole lines: bytes it is handed, or a block of a file it
// reads itself. It answers with the rows' columns and the block's bytes (see parse-block.ts), transferred.
import { parentPort } from 'node:worker_threads';
import { readFileBlock } from './file-blocks';
import { parseBlock, transferList, type ParsedBlock } from './parse-block';
import type { RowCheck } from './parse-row-line';

/** One block to parse: bytes handed over, or the lines starting in [from, to) of a file of `size` bytes. */
export type ParseWork = { kind: 'bytes'; bytes: Uint8Array } | { kind: 'file-block'; file: string; size: number; from: number; to: number };

export type ParseRequest =
  | (ParseWork & { id: number })
  /** Memory of a block the engine thread has written, handed back for the next block to be read into. */
  | { id: number; kind: 'recycle'; buffer: ArrayBuffer };

const MAX_SPARE_BUFFERS = 4;
const spareBuffers: ArrayBuffer[] = [];

// zod (the full row check, for its messages) loads only when a line fails the fast check: a clean file never
// pays for it.
let fullCheck: RowCheck | null = null;
const NEEDS_FULL_CHECK = new Error('the full row check is not loaded yet');
const deferFullCheck: RowCheck = () => {
  throw NEEDS_FULL_CHECK;
};

async function parse(bytes: Uint8Array): Promise<ParsedBlock> {
  try {
    return parseBlock(bytes, fullCheck ?? deferFullCheck);
  } catch (error) {
    if (error !== NEEDS_FULL_CHECK) throw error;
    fullCheck = (await import('./row-check')).rowProblem;
    return parseBlock(bytes, fullCheck);
  }
}

parentPort?.on('message', async (request: ParseRequest) => {
  if (request.kind === 'recycle') {
    if (spareBuffers.length < MAX_SPARE_BUFFERS) spareBuffers.push(request.buffer);
    return;
  }
  try {
    const bytes = request.kind === 'bytes' ? request.bytes : readFileBlock(request.file, request.size, request.from, request.to, spareBuffers.pop());
    const result = await parse(bytes);
    parentPort?.postMessage({ id: request.id, result }, transferList(result));
  } catch (error) {
    parentPort?.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) });
  }
});
