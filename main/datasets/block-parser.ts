// Parses import blocks off the engine thread when the worker bundle is built; inline otherwise (e.g. in unit tests).
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { packageRoot } from '../engine/package-root';
import { parseBlock, type ParsedBlock } from './parse-block';

export interface BlockParser {
  parse(block: string, firstLine: number): Promise<ParsedBlock>;
  close(): void;
}

function workerScript(): string | null {
  const file = path.join(packageRoot(), 'out', 'engine', 'import-worker.mjs');
  return fs.existsSync(file) ? file : null;
}

function inlineParser(): BlockParser {
  return { parse: async (block, firstLine) => parseBlock(block, firstLine), close: () => {} };
}

function workerParser(script: string): BlockParser {
  const worker = new Worker(script);
  worker.unref();
  const waiting = new Map<number, { resolve: (block: ParsedBlock) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  const failAll = (error: Error) => {
    for (const waiter of waiting.values()) waiter.reject(error);
    waiting.clear();
  };
  worker.on('message', (message: { id: number; result: ParsedBlock }) => {
    waiting.get(message.id)?.resolve(message.result);
    waiting.delete(message.id);
  });
  worker.on('error', failAll);
  worker.on('exit', (code) => code !== 0 && failAll(new Error(`the import worker stopped (exit ${code})`)));
  return {
    parse(block, firstLine) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        worker.postMessage({ id, block, firstLine });
      });
    },
    close: () => void worker.terminate(),
  };
}

export function createBlockParser(): BlockParser {
  const script = workerScript();
  return script ? workerParser(script) : inlineParser();
}
