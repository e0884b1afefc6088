// A parse worker of an import: decoding, JSON parsing and validation run here while the engine thread writes
// to SQLite. It parses one block at a time, given as text (chunked imports from the UI) or as raw bytes
// (files the engine reads itself), and answers with the block's rows and errors.
import { parentPort } from 'node:worker_threads';
import { parseBlock } from './parse-block';
import { decodeBlock } from './read-lines';

parentPort?.on('message', (message: { id: number; text?: string; bytes?: Uint8Array }) => {
  const text = message.text ?? decodeBlock(message.bytes!);
  parentPort?.postMessage({ id: message.id, result: parseBlock(text) });
});
