// Parses import blocks off the engine thread on a small pool of workers (inline when the worker bundle is not
// built, e.g. in unit tests). Blocks may finish out of order; callers apply them in file order.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { packageRoot } from '../engine/package-root';
import { parseBlock, type ParsedBlock } from './parse-block';
import { decodeBlock, readLineByteBlocks } from './read-lines';

/** Blocks parsed ahead of the writer: bounds memory to a few MiB of text and their rows. */
const MAX_BLOCKS_IN_FLIGHT = 3;

export interface BlockParser {
  /** Parses one block of complete lines; line numbers in the result count from 1 within the block. */
  parse(block: string | Uint8Array): Promise<ParsedBlock>;
  close(): void;
}

function workerScript(): string | null {
  const file = path.join(packageRoot(), 'out', 'engine', 'import-worker.mjs');
  return fs.existsSync(file) ? file : null;
}

function inlineParser(): BlockParser {
  return { parse: async (block) => parseBlock(typeof block === 'string' ? block : decodeBlock(block)), close: () => {} };
}

function workerPool(script: string, size: number): BlockParser {
  const waiting = new Map<number, { resolve: (block: ParsedBlock) => void; reject: (error: Error) => void }>();
  const failAll = (error: Error) => {
    for (const waiter of waiting.values()) waiter.reject(error);
    waiting.clear();
  };
  const workers = Array.from({ length: size }, () => {
    const worker = new Worker(script);
    worker.unref();
    worker.on('message', (reply: { id: number; result: ParsedBlock }) => {
      waiting.get(reply.id)?.resolve(reply.result);
      waiting.delete(reply.id);
    });
    worker.on('error', failAll);
    worker.on('exit', (code) => code !== 0 && failAll(new Error(`an import worker stopped (exit ${code})`)));
    return worker;
  });
  let nextId = 1;
  return {
    parse(block) {
      const id = nextId++;
      const worker = workers[id % workers.length];
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        if (typeof block === 'string') worker.postMessage({ id, text: block });
        else worker.postMessage({ id, bytes: block }, [block.buffer as ArrayBuffer]);
      });
    },
    close: () => workers.forEach((worker) => void worker.terminate()),
  };
}

export function createBlockParser(): BlockParser {
  const script = workerScript();
  // One core stays with the engine thread, which writes the rows.
  return script ? workerPool(script, Math.max(1, Math.min(4, os.availableParallelism() - 1))) : inlineParser();
}

/** Reads, parses and hands over a whole file, block by block in file order, at most a few blocks ahead. */
export async function parseFileInOrder(parser: BlockParser, file: string, onBlock: (block: ParsedBlock) => void): Promise<void> {
  const inFlight: Array<Promise<ParsedBlock>> = [];
  for await (const bytes of readLineByteBlocks(file)) {
    inFlight.push(parser.parse(bytes));
    if (inFlight.length >= MAX_BLOCKS_IN_FLIGHT) onBlock(await inFlight.shift()!);
  }
  while (inFlight.length > 0) onBlock(await inFlight.shift()!);
}
