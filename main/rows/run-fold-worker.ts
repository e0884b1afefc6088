// A run's fold thread (run-folds.ts): the rows the run stored come in as they land; 'take' answers with the folds
// encoded (transferred), or null when there is nothing to keep.
import { parentPort } from 'node:worker_threads';
import { RunFoldState, type LandedRow } from './run-folds';

type Message = { type: 'landed'; rows: LandedRow[] } | { type: 'take' };

const state = new RunFoldState();
parentPort?.on('message', (message: Message) => {
  if (message.type === 'landed') return state.landed(message.rows);
  const folds = state.take();
  parentPort?.postMessage({ folds }, folds ? folds.map(({ bytes }) => bytes.buffer as ArrayBuffer) : []);
});
