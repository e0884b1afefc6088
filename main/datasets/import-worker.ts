// A parse worker of an import: JSON parsing and validation run here while the engine thread writes to SQLite.
// It parses one block of complete lines at a time and answers with the rows' columns (see parse-block.ts).
import { parentPort } from 'node:worker_threads';
import { parseBlock, transferList } from './parse-block';

parentPort?.on('message', (message: { id: number; text: string }) => {
  const result = parseBlock(message.text);
  parentPort?.postMessage({ id: message.id, result }, transferList(result));
});
