// A short soak in the suite (the 60 s one is test/bench/soak.bench.mjs): 8 WebSocket clients read rows pages and
// pass@k for 5 s against a live `serve` while seeded runs with a judge write; no call fails and no row is lost.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../main/engine/engine';
import { startServer, type RunningServer } from '../../main/engine/transports/ws-server';
import { buildEngine } from '../helpers/build-engine';
import { tempDir } from '../helpers/temp';
// @ts-expect-error: a plain .mjs bench module without type declarations
import { soak } from '../bench/soak.bench.mjs';

let engine: Engine;
let server: RunningServer;

beforeAll(async () => {
  await buildEngine(); // the statistics workers run from the bundle
  const dir = tempDir();
  fs.mkdirSync(path.join(dir, 'static'));
  engine = createEngine({ dbPath: path.join(dir, 'soak.db') });
  server = await startServer({ engine, staticDir: path.join(dir, 'static') });
}, 120_000);

afterAll(async () => {
  await server?.close();
  await engine?.close();
});

it('8 clients reading for 5 s while runs write: no error, every run whole', async () => {
  const result = await soak({ url: server.url, clients: 8, seconds: 5, tasks: 20, k: 50 });
  expect(result.errors).toEqual([]);
  expect(result.runs.length).toBeGreaterThan(0);
  for (const run of result.runs) expect(run).toMatchObject({ whole: true, rows: run.expected });
  expect(result.pages.count).toBeGreaterThan(0);
  expect(result.statistics.count).toBeGreaterThan(0);
}, 60_000);
