// Crash safety of sync through the CLI bundle: `kill -9` in the middle of a push (while the upload hangs, and
// after the platform made the dataset but before its answer arrived) and in the middle of draining many
// items; after `while-desk sync` the fake holds every item exactly once, with all its rows. The fake here
// ignores Idempotency-Key, so only the app's own bookkeeping prevents duplicates.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, buildEngine, root } from './sim-run-helpers';
import { startFakeWhilePlatform, type FakeWhilePlatform, type RecordedRequest } from '../fixtures/fake-while-platform.mjs';
import { signIn, tempDir, writeRows } from './sync-helpers';

let fake: FakeWhilePlatform;
const dir = tempDir('wd-sync-kill-');
const home = path.join(dir, 'whileai');
const db = path.join(dir, 'desk.sqlite');
const spools = path.join(dir, 'spool');
const ROWS = 3000;
let datasetId = '';

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI (asynchronously: the fake answers from this process); kills it -9 once `killWhen` holds. */
function cli(args: string[], killWhen?: (requests: RecordedRequest[]) => boolean): Promise<Run> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, WHILEAI_HOME: home, WHILEAI_API_URL: fake.url, WHILEAI_PLATFORM_URL: fake.url, WHILE_DESK_SYNC_TIMEOUT_MS: '30000', WHILE_DESK_SYNC_BACKOFF_MS: '5', WHILE_DESK_SPOOL_DIR: spools };
    delete env.WHILEAI_API_KEY;
    const child = spawn(process.execPath, [bin, ...args, '--db', db], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const deadline = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`while-desk ${args.join(' ')} ran too long\n${stderr}`));
    }, 60_000);
    const poll = killWhen
      ? setInterval(() => {
          if (killWhen(fake.requests)) child.kill('SIGKILL');
        }, 5)
      : undefined;
    child.on('close', (code, signal) => {
      clearTimeout(deadline);
      clearInterval(poll);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

beforeAll(async () => {
  await buildEngine();
  fake = await startFakeWhilePlatform({ idempotencyKeys: false });
  signIn(fake, home);
  const imported = await cli(['import', writeRows(path.join(dir, 'rows.jsonl'), ROWS), '--json']);
  datasetId = (JSON.parse(imported.stdout) as { dataset_id: string }).dataset_id;
}, 120_000);
afterAll(async () => {
  await fake.close();
});

function expectExactlyOnce(names: string[]) {
  const sets = fake.datasets();
  expect(sets.map((ds) => ds.name).sort()).toEqual([...names].sort());
  for (const ds of sets) {
    expect(ds).toMatchObject({ status: 'ready', rows: ROWS });
    expect(new Set(fake.datasetRows(ds.datasetId).map((row) => row.prompt)).size).toBe(ROWS);
  }
}

describe('kill -9 during sync', () => {
  it('a push killed while its upload hangs finishes on the next `while-desk sync`, once', async () => {
    fake.reset();
    signIn(fake, home);
    fake.fault('PUT /_s3/:id', { kind: 'hang' });
    const killed = await cli(['push', datasetId, '--name', 'upload-cut', '--no-gate'], (requests) => requests.some((r) => r.route === 'PUT /_s3/:id' && r.bytes > 0));
    expect(killed.signal).toBe('SIGKILL');
    expect(fake.datasets()).toEqual([expect.objectContaining({ name: 'upload-cut', status: 'pending' })]);
    expect(fs.readdirSync(spools)).toHaveLength(1); // the killed push's upload spool

    const outbox = await cli(['outbox', '--json']);
    expect(JSON.parse(outbox.stdout)).toEqual([expect.objectContaining({ state: 'sending' })]);
    const synced = await cli(['sync', '--json']);
    expect(synced.code, synced.stderr).toBe(0);
    expect(JSON.parse(synced.stdout)).toMatchObject({ done: 1, outbox: { done: 1, queued: 0, failed: 0, sending: 0 } });
    expectExactlyOnce(['upload-cut']);
    expect(fake.requests.filter((r) => r.route === 'POST /datasets')).toHaveLength(1);
    expect(fs.readdirSync(spools)).toEqual([]); // the next upload swept the dead process's spool, and removed its own
  });

  it('a push killed after the platform made the dataset, before its answer came, leaves no second dataset', async () => {
    fake.reset();
    signIn(fake, home);
    fake.fault('POST /datasets', { kind: 'hang', afterHandling: true });
    const killed = await cli(['push', datasetId, '--name', 'create-cut', '--no-gate'], (requests) => requests.some((r) => r.route === 'POST /datasets' && r.status === -2));
    expect(killed.signal).toBe('SIGKILL');
    expect(fake.datasets()).toHaveLength(1);
    const synced = await cli(['sync']);
    expect(synced.code, synced.stderr).toBe(0);
    expectExactlyOnce(['create-cut']);
  });

  it('a drain of many queued items killed midway finishes every item exactly once', async () => {
    fake.reset();
    signIn(fake, home);
    const names = Array.from({ length: 8 }, (_, i) => `many-${i}`);
    for (const name of names) expect((await cli(['push', datasetId, '--name', name, '--no-gate', '--queue-only'])).code).toBe(0);
    expect(fake.requests).toHaveLength(0); // queued only: nothing sent (auto sync is off)
    fake.fault('*', { kind: 'slow', ms: 15, times: 10_000 });
    const finalized = (requests: RecordedRequest[]) => requests.filter((r) => r.route === 'POST /datasets/:id/finalize' && r.status === 200).length;
    const killed = await cli(['sync'], (requests) => finalized(requests) >= 3);
    expect(killed.signal).toBe('SIGKILL');
    expect(finalized(fake.requests)).toBeLessThan(names.length);
    fake.clearFaults();
    const synced = await cli(['sync', '--json']);
    expect(synced.code, synced.stderr).toBe(0);
    expectExactlyOnce(names);
    const status = JSON.parse((await cli(['status', '--json', '--offline'])).stdout) as { outbox: Record<string, number>; key: string };
    expect(status.outbox).toMatchObject({ done: names.length + 2, queued: 0, sending: 0, failed: 0 }); // + the two pushes above
    expect(status.key).toMatch(/^zp_.{4}\.\.\..{4}$/);
  });
});
