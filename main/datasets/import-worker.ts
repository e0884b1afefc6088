// Worker thread of an import: parsing and validation run here while the engine thread writes to SQLite.
import { parentPort } from 'node:worker_threads';
import { parseBlock } from './parse-block';

parentPort?.on('message', (message: { id: number; block: string; firstLine: number }) => {
  parentPort?.postMessage({ id: message.id, result: parseBlock(message.block, message.firstLine) });
});
