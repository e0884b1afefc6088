// Parses import blocks off the engine thread on a small pool of workers (inline when the worker bundle is not
// built, e.g. in unit tests). Blocks may finish out of order; callers apply them in file order.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { packageRoot } from '../engine/package-root';
import { parseBlock, type ParsedBlock } from './parse-block';
import { readLineBlocks } from './read-lines';

/** Blocks parsed ahead of the writer: bounds memory to a few MiB of text and their rows. */
export const MAX_BLOCKS_IN_FLIGHT = 3;

export interface BlockParser {
  /** Parses one block of complete lines; line numbers in the result count from 1 within the block. */
  parse(block: string): Promise<ParsedBlock>;
  close(): void;
}

function workerScript(): string | null {
  const file = path.join(packageRoot(), 'out', 'engine', 'import-worker.mjs');
  return fs.existsSync(file) ? file : null;
}

function inlineParser(): BlockParser {
  return { parse: async (block) => parseBlock(block), close: () => {} };
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
        worker.postMessage({ id, text: block });
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
export async function parseFileInOrder(parser: BlockParser, file: string, onBlock: (block: ParsedBlock, text: string) => void): Promise<void> {
  const inFlight: Array<{ text: string; parsed: Promise<ParsedBlock> }> = [];
  const next = async () => {
    const { text, parsed } = inFlight.shift()!;
    onBlock(await parsed, text);
  };
  for await (const text of readLineBlocks(file)) {
    inFlight.push({ text, parsed: parser.parse(text) });
    if (inFlight.length >= MAX_BLOCKS_IN_FLIGHT) await next();
  }
  while (inFlight.length > 0) await next();
}
