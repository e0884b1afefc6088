// Parses import blocks off the engine thread on a small pool of workers (inline when the worker bundle is not
// built, e.g. in unit tests). Blocks may finish out of order; callers apply them in file order.
import fs from 'node:fs';
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { builtScriptIfPresent } from '../engine/package-root';
import { BLOCK_BYTES, blockRanges, readFileBlock } from './file-blocks';
import type { ParseRequest, ParseWork } from './import-worker';
import { parseBlock, type ParsedBlock } from './parse-block';

/** Blocks parsed ahead of the writer: bounds memory to a few MiB of text and their rows. */
export const MAX_BLOCKS_IN_FLIGHT = 4;

export interface BlockParser {
  /** Parses one block of complete lines (bytes of its own: they are transferred); line numbers count from 1 within it. */
  parse(work: ParseWork): Promise<ParsedBlock>;
  /** Hands a written block's memory back, to be read into again (saves fresh pages on every block). */
  recycle(bytes: Uint8Array): void;
  close(): void;
}

function inlineParser(): BlockParser {
  return {
    async parse(work) {
      const { rowProblem } = await import('./row-check');
      return parseBlock(work.kind === 'bytes' ? work.bytes : readFileBlock(work.file, work.size, work.from, work.to), rowProblem);
    },
    recycle: () => {},
    close: () => {},
  };
}

type Reply = { id: number; result: ParsedBlock; error?: undefined } | { id: number; error: string };

function workerPool(script: string, size: number): BlockParser {
  const waiting = new Map<number, { resolve: (block: ParsedBlock) => void; reject: (error: Error) => void }>();
  // A worker that died (it failed to load, or ran out of memory) fails what it held and every later block,
  // so an import reports the failure instead of waiting for an answer that never comes.
  let dead: Error | null = null;
  const failAll = (error: Error) => {
    dead ??= error;
    for (const waiter of waiting.values()) waiter.reject(error);
    waiting.clear();
  };
  const workers = Array.from({ length: size }, () => {
    const worker = new Worker(script);
    worker.unref();
    worker.on('message', (reply: Reply) => {
      const waiter = waiting.get(reply.id);
      waiting.delete(reply.id);
      if (reply.error !== undefined) waiter?.reject(new Error(reply.error));
      else waiter?.resolve(reply.result);
    });
    worker.on('error', failAll);
    worker.on('exit', (code) => code !== 0 && failAll(new Error(`an import worker stopped (exit ${code})`)));
    return worker;
  });
  let nextId = 1;
  return {
    parse(work) {
      const id = nextId++;
      const worker = workers[id % workers.length];
      return new Promise((resolve, reject) => {
        if (dead) return reject(dead);
        waiting.set(id, { resolve, reject });
        const request: ParseRequest = { id, ...work };
        worker.postMessage(request, work.kind === 'bytes' ? [work.bytes.buffer as ArrayBuffer] : []);
      });
    },
    recycle(bytes) {
      const request: ParseRequest = { id: 0, kind: 'recycle', buffer: bytes.buffer as ArrayBuffer };
      workers[nextId % workers.length].postMessage(request, [request.buffer]);
    },
    close: () => workers.forEach((worker) => void worker.terminate()),
  };
}

/** One core stays with the engine thread, which writes the rows; WHILE_DESK_IMPORT_WORKERS overrides (tests). */
function parseWorkerCount(): number {
  const forced = Number(process.env.WHILE_DESK_IMPORT_WORKERS);
  if (Number.isInteger(forced) && forced >= 1 && forced <= 16) return forced;
  return Math.max(1, Math.min(4, os.availableParallelism() - 1));
}

function startParser(): BlockParser {
  const script = builtScriptIfPresent('import-worker.cjs');
  return script ? workerPool(script, parseWorkerCount()) : inlineParser();
}

/** A parser started ahead of its import, with the first blocks of the file it will read already on their way. */
let warmParser: { parser: BlockParser; file: string; size: number; blocks: Map<string, Promise<ParsedBlock>> } | null = null;

/**
 * Starts the parse workers and reads ahead the first blocks of `file`, before the engine has opened (the CLI
 * does this, so both overlap). The next import of that same file takes them; any other import ignores them.
 */
export function warmUpImport(file: string): void {
  if (warmParser) return;
  let size: number;
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile()) return;
    size = stat.size;
  } catch {
    return; // the import itself will say what is wrong with the path
  }
  const parser = startParser();
  const blocks = new Map<string, Promise<ParsedBlock>>();
  for (const [from, to] of blockRanges(size).slice(0, MAX_BLOCKS_IN_FLIGHT)) {
    const parsed = parser.parse({ kind: 'file-block', file, size, from, to });
    parsed.catch(() => undefined); // raised, if at all, where the import awaits it
    blocks.set(`${from}-${to}`, parsed);
  }
  warmParser = { parser, file, size, blocks };
}

/** The parser for one import: the warmed-up one when there is one (its read-ahead tied to its file), else a new one. */
export function createBlockParser(): BlockParser {
  if (!warmParser) return startParser();
  const { parser, file, size, blocks } = warmParser;
  warmParser = null;
  return {
    parse(work) {
      if (work.kind !== 'file-block' || work.file !== file || work.size !== size) return parser.parse(work);
      const key = `${work.from}-${work.to}`;
      const ahead = blocks.get(key);
      blocks.delete(key);
      return ahead ?? parser.parse(work);
    },
    recycle: (bytes) => parser.recycle(bytes),
    close: () => parser.close(),
  };
}

/**
 * Parses a whole file of `size` bytes block by block, the workers reading their blocks themselves, and hands
 * the blocks over in file order, at most a few ahead of the writer.
 */
export async function parseFileInOrder(parser: BlockParser, file: string, size: number, onBlock: (block: ParsedBlock) => void, blockBytes = BLOCK_BYTES): Promise<void> {
  const ranges = blockRanges(size, blockBytes);
  const inFlight: Array<Promise<ParsedBlock>> = [];
  let next = 0;
  const request = () => {
    const [from, to] = ranges[next++];
    const parsed = parser.parse({ kind: 'file-block', file, size, from, to });
    parsed.catch(() => undefined); // a failure is raised where it is awaited, in order
    inFlight.push(parsed);
  };
  while (next < ranges.length && inFlight.length < MAX_BLOCKS_IN_FLIGHT) request();
  while (inFlight.length > 0) {
    const block = await inFlight.shift()!;
    if (next < ranges.length) request();
    onBlock(block);
  }
}
