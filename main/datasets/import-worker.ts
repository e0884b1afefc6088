// Worker thread of an import: reading, parsing and validation run here while the engine thread writes to SQLite.
// Two jobs: parse one block of text sent by the engine (chunked imports from the UI), or read a whole file
// and stream its parsed blocks back, pausing while the engine is more than a few blocks behind.
import { parentPort } from 'node:worker_threads';
import { parseBlock } from './parse-block';
import { readLineBlocks } from './read-lines';

const MAX_UNACKED_BLOCKS = 3;
let unacked = 0;
let resumeReading: (() => void) | null = null;

async function streamFile(id: number, file: string): Promise<void> {
  try {
    for await (const block of readLineBlocks(file)) {
      if (unacked >= MAX_UNACKED_BLOCKS) await new Promise<void>((resolve) => (resumeReading = resolve));
      unacked++;
      parentPort?.postMessage({ id, block: parseBlock(block) });
    }
    parentPort?.postMessage({ id, done: true });
  } catch (error) {
    parentPort?.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
}

parentPort?.on('message', (message: { kind: 'block'; id: number; block: string } | { kind: 'file'; id: number; file: string } | { kind: 'ack' }) => {
  if (message.kind === 'block') parentPort?.postMessage({ id: message.id, result: parseBlock(message.block) });
  else if (message.kind === 'file') void streamFile(message.id, message.file);
  else {
    unacked--;
    resumeReading?.();
    resumeReading = null;
  }
});
