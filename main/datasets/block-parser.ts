// Parses import text off the engine thread when the worker bundle is built; inline otherwise (e.g. in unit tests).
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { packageRoot } from '../engine/package-root';
import { parseBlock, type ParsedBlock } from './parse-block';
import { readLineBlocks } from './read-lines';

export interface BlockParser {
  /** Line numbers in the result count from 1 within the block. */
  parse(block: string): Promise<ParsedBlock>;
  /** Reads and parses a whole file; onBlock gets its blocks in file order, and reading waits for it. */
  parseFile(file: string, onBlock: (block: ParsedBlock) => void): Promise<void>;
  close(): void;
}

function workerScript(): string | null {
  const file = path.join(packageRoot(), 'out', 'engine', 'import-worker.mjs');
  return fs.existsSync(file) ? file : null;
}

function inlineParser(): BlockParser {
  return {
    parse: async (block) => parseBlock(block),
    parseFile: async (file, onBlock) => {
      for await (const block of readLineBlocks(file)) onBlock(parseBlock(block));
    },
    close: () => {},
  };
}

type WorkerReply = { id: number; result?: ParsedBlock; block?: ParsedBlock; done?: true; error?: string };

function workerParser(script: string): BlockParser {
  const worker = new Worker(script);
  worker.unref();
  const handlers = new Map<number, { message: (reply: WorkerReply) => void; fail: (error: Error) => void }>();
  let nextId = 1;
  const failAll = (error: Error) => {
    for (const handler of handlers.values()) handler.fail(error);
    handlers.clear();
  };
  worker.on('message', (reply: WorkerReply) => handlers.get(reply.id)?.message(reply));
  worker.on('error', failAll);
  worker.on('exit', (code) => code !== 0 && failAll(new Error(`the import worker stopped (exit ${code})`)));
  return {
    parse(block) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        handlers.set(id, {
          message: (reply) => {
            handlers.delete(id);
            resolve(reply.result!);
          },
          fail: reject,
        });
        worker.postMessage({ kind: 'block', id, block });
      });
    },
    parseFile(file, onBlock) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        const finish = (error?: Error) => {
          handlers.delete(id);
          if (error) reject(error);
          else resolve();
        };
        handlers.set(id, {
          message: (reply) => {
            if (reply.block) {
              try {
                onBlock(reply.block);
              } catch (error) {
                finish(error instanceof Error ? error : new Error(String(error)));
                return;
              }
              worker.postMessage({ kind: 'ack' });
            } else if (reply.error) finish(new Error(`could not read ${file}: ${reply.error}`));
            else if (reply.done) finish();
          },
          fail: finish,
        });
        worker.postMessage({ kind: 'file', id, file });
      });
    },
    close: () => void worker.terminate(),
  };
}

export function createBlockParser(): BlockParser {
  const script = workerScript();
  return script ? workerParser(script) : inlineParser();
}
