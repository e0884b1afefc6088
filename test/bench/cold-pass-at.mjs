// The first statistic through the API on a cold engine, as the app's or serve's engine is when a person's first
// call arrives: open, its handlers loaded, no statistics worker yet. One script for every bench that reports it.

/**
 * The script's text: run as `node SCRIPT DB_PATH DATASET_ID`, it prints `{ ms, pass_at_1 }` for the first
 * `stats.passAt` call. `engineFile` is the engine bundle beside the script (it exports createEngine).
 */
export function coldPassAtScript(engineFile) {
  return `
import { performance } from 'node:perf_hooks';
const [dbPath, datasetId] = process.argv.slice(2);
const { createEngine } = await import(new URL('./${engineFile}', import.meta.url).href);
const engine = createEngine({ dbPath, preloadHandlers: true });
await engine.ready;
const t0 = performance.now();
const out = await engine.call('stats.passAt', { dataset_id: datasetId });
console.log(JSON.stringify({ ms: performance.now() - t0, pass_at_1: out.report.pass_at_1 }));
await engine.close();
`;
}
