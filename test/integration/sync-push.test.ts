// Pushing a dataset through the outbox to the fake platform, with every fault of §8 injected: each push
// arrives exactly once with all its rows, a retried step never makes a second dataset, and nothing is sent
// before the person signs in and pushes.
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../main/engine/engine';
import { startFakeWhilePlatform, type FakeWhilePlatform } from '../fixtures/fake-while-platform.mjs';
import { engineWithRows, signIn, tempDir, useFake } from './sync-helpers';

const ROWS = 120;
let fake: FakeWhilePlatform;
let engine: Engine;
let datasetId: string;
let home: string;

beforeAll(async () => {
  fake = await startFakeWhilePlatform();
});
afterAll(() => fake.close());
beforeEach(async () => {
  fake.reset();
  const dir = tempDir('wd-sync-push-');
  home = path.join(dir, 'whileai');
  useFake(fake, home);
  ({ engine, datasetId } = await engineWithRows(dir, ROWS, (i) => ({ privileged: { answer: `secret-${i}` } })));
});
afterEach(() => engine.close());

const push = (extra: Record<string, unknown> = {}) => engine.call('sync.push', { dataset_id: datasetId, name: 'airline-v3', ...extra });
const ready = () => fake.datasets().filter((ds) => ds.status === 'ready');

function expectOneDataset(rows = ROWS) {
  const sets = fake.datasets();
  expect(sets).toHaveLength(1);
  expect(sets[0]).toMatchObject({ name: 'airline-v3', status: 'ready', rows });
  const stored = fake.datasetRows(sets[0].datasetId);
  expect(stored).toHaveLength(rows);
  expect(new Set(stored.map((row) => row.prompt)).size).toBe(rows);
  return sets[0];
}

describe('nothing leaves before sign-in and push', () => {
  it('sends nothing on open, status, outbox, auto sync on, or a push without a key', async () => {
    await engine.call('sync.status', {});
    await engine.call('sync.outbox', {});
    await engine.call('sync.setAuto', { enabled: true });
    await expect(push()).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(engine.call('sync.now', {})).rejects.toMatchObject({ code: 'unauthorized' });
    expect(fake.requests).toHaveLength(0);
    expect(await engine.call('sync.outbox', {})).toHaveLength(0);
  });

  it('signed in but not pushed and auto sync off: still nothing', async () => {
    signIn(fake, home);
    await engine.call('sync.status', { online: false });
    await engine.call('sync.now', {});
    expect(fake.requests).toHaveLength(0);
  });
});

describe('push', () => {
  it('creates, uploads the JSONL without a key or the privileged block, finalizes, and records the outcome', async () => {
    const key = signIn(fake, home);
    const result = await push({ purpose: 'train', agent: 'airline-support', mode: 'rl' });
    expect(result.item).toMatchObject({ state: 'done', attempts: 1, last_error: null });
    expect(result.gate).toMatchObject({ ok: true, rl_shaped: true, refusal: null, calibration: { n_rows: ROWS, n_stamped: ROWS, n_tasks: ROWS / 4 } });
    const ds = expectOneDataset();
    expect(ds).toMatchObject({ purpose: 'train', agent: 'airline-support', mode: 'rl' });
    expect(result.item.result).toMatchObject({ datasetId: ds.datasetId, rows: ROWS });
    const routes = fake.requests.map((r) => r.route);
    expect(routes).toEqual(['POST /datasets', 'PUT /_s3/:id', 'POST /datasets/:id/finalize']);
    const put = fake.requests[1];
    expect(put).toMatchObject({ apiKey: null, authorization: null, contentType: 'application/jsonl' });
    expect(fake.requests[0].apiKey).toBe(key);
    expect(JSON.stringify(fake.datasetRows(ds.datasetId))).not.toContain('secret-');
    // The gate's calibration stamp travels on every row (§3.5): task t0 has rewards 0, 1, 1, 0.
    expect(fake.datasetRows(ds.datasetId)[0]).toMatchObject({ schema_version: '1', scenario_id: 't0', unicode_note: 'café ✓ 日本', calibration: { task_id: 't0', n: 4, pass_rate: 0.5, pass_rate_ci95: [expect.any(Number), expect.any(Number)] } });
    expect(fake.datasetRows(ds.datasetId).every((row) => row.calibration?.n === 4)).toBe(true);
  });

  it('splits a holdout by task and pushes it with the train set as its parent', async () => {
    signIn(fake, home);
    const result = await push({ holdout: 0.3, parent: 'ds_grandparent' });
    expect(result.item.state).toBe('done');
    const [train, holdout] = fake.datasets();
    expect(train).toMatchObject({ name: 'airline-v3', parentDatasetId: 'ds_grandparent', status: 'ready' });
    expect(holdout).toMatchObject({ name: 'airline-v3-holdout', purpose: 'holdout', parentDatasetId: train.datasetId, status: 'ready' });
    expect(train.rows + holdout.rows).toBe(ROWS);
    expect(holdout.rows).toBe(result.holdout_rows);
    const trainTasks = new Set(fake.datasetRows(train.datasetId).map((r) => r.scenario_id));
    const holdoutTasks = new Set(fake.datasetRows(holdout.datasetId).map((r) => r.scenario_id));
    expect([...holdoutTasks].filter((t) => trainTasks.has(t))).toEqual([]);
    expect(holdoutTasks.size).toBe(result.holdout_tasks);
    expect(holdoutTasks.size).toBeGreaterThan(0);
  });

  it("gives the same gate report whether its upload made it (sent at once) or a scan did (queued, sent later)", async () => {
    signIn(fake, home);
    const sent = await push({ mode: 'rl' });
    const queued = await push({ mode: 'rl', send: false });
    expect(queued.gate).toEqual(sent.gate);
    expect(sent.item.result?.gate).toEqual(sent.gate);
    await engine.call('sync.now', {});
    const later = (await engine.call('sync.outbox', {})).find((item) => item.id === queued.item.id);
    expect(later?.result?.gate).toEqual(sent.gate);
    expect(sent.gate).toMatchObject({ ok: true, calibration: { pass_at: { config: { policy_version: 'callable-agent@0123456789abcdef' } } } });
  });

  it('refuses, before sending anything, a set the gate refuses (no mixed group) unless --no-gate', async () => {
    signIn(fake, home);
    const dir = tempDir('wd-sync-gate-');
    await engine.close();
    ({ engine, datasetId } = await engineWithRows(dir, 40, () => ({ reward: 1 })));
    await expect(push()).rejects.toMatchObject({ code: 'failed', message: expect.stringContaining('no_mixed_groups') });
    expect(fake.requests).toHaveLength(0);
    expect(await engine.call('sync.outbox', {})).toHaveLength(0);
    expect((await push({ gate: false })).item.state).toBe('done');
  });
});

describe('faults', () => {
  beforeEach(() => void signIn(fake, home));

  it('retries a 5xx on each step with backoff and ends with one dataset', async () => {
    fake.fault('POST /datasets', { kind: 'status', status: 503 });
    fake.fault('PUT /_s3/:id', { kind: 'status', status: 500 });
    fake.fault('POST /datasets/:id/finalize', { kind: 'status', status: 502 });
    expect((await push()).item.state).toBe('done');
    expectOneDataset();
  });

  it('retries a timeout (no reply) and a slow reply', async () => {
    fake.fault('POST /datasets/:id/finalize', { kind: 'hang' });
    fake.fault('PUT /_s3/:id', { kind: 'slow', ms: 300 });
    expect((await push()).item.state).toBe('done');
    expectOneDataset();
    expect(fake.requests.filter((r) => r.route === 'POST /datasets/:id/finalize')).toHaveLength(2);
  });

  it('uploads again after a connection reset in the middle of the upload', async () => {
    fake.fault('PUT /_s3/:id', { kind: 'reset', afterBytes: 20_000 });
    expect((await push()).item.state).toBe('done');
    expectOneDataset();
    expect(fake.requests.filter((r) => r.route === 'PUT /_s3/:id').map((r) => r.status)).toEqual([-1, 200]);
  });

  it('never makes a second dataset when the create was done but its answer lost (timeout, then reset)', async () => {
    fake.fault('POST /datasets', { kind: 'hang', afterHandling: true });
    fake.fault('POST /datasets', { kind: 'reset', afterHandling: true });
    expect((await push()).item.state).toBe('done');
    expectOneDataset();
  });

  it('never makes a second dataset on a platform that ignores Idempotency-Key', async () => {
    const plain = await startFakeWhilePlatform({ idempotencyKeys: false });
    try {
      useFake(plain, home);
      signIn(plain, home);
      plain.fault('POST /datasets', { kind: 'hang', afterHandling: true });
      plain.fault('POST /datasets', { kind: 'reset', afterHandling: true });
      expect((await push()).item.state).toBe('done');
      expect(plain.datasets()).toEqual([expect.objectContaining({ status: 'ready', rows: ROWS })]);
      expect(plain.requests.filter((r) => r.route === 'POST /datasets')).toHaveLength(3);
    } finally {
      await plain.close();
    }
  });

  it('starts a part again when its presigned upload URL has expired (403), leaving one dataset', async () => {
    fake.fault('PUT /_s3/:id', { kind: 'status', status: 403, body: '<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>' });
    expect((await push()).item.state).toBe('done');
    expectOneDataset();
    expect(fake.requests.filter((r) => r.route === 'POST /datasets')).toHaveLength(2);
    expect(fake.requests.filter((r) => r.route === 'DELETE /datasets/:id')).toHaveLength(1);
  });

  it('two drains at once (automatic sync and Sync now) send an item once', async () => {
    await push({ send: false });
    fake.fault('PUT /_s3/:id', { kind: 'slow', ms: 200 });
    const [a, b] = await Promise.all([engine.call('sync.now', {}), engine.call('sync.now', {})]);
    expect(a.done + b.done).toBe(1);
    expectOneDataset();
    expect(fake.requests.filter((r) => r.route === 'PUT /_s3/:id')).toHaveLength(1);
  });

  it('keeps the item on 401 and asks to sign in again; it goes once signed in', async () => {
    fake.fault('POST /datasets', { kind: 'unauthorized' });
    const first = await push();
    expect(first.item).toMatchObject({ state: 'queued', blocked: 'sign_in', last_error: expect.stringContaining('sign in again') });
    expect(first.sent?.blocked?.reason).toBe('sign_in');
    expect(fake.datasets()).toHaveLength(0);
    const again = await engine.call('sync.now', {});
    expect(again).toMatchObject({ done: 1, outbox: { done: 1, queued: 0 } });
    expectOneDataset();
  });

  it('says billing_required plainly on 402, keeps the item, and a later sync sends it once', async () => {
    fake.fault('PUT /_s3/:id', { kind: 'billing' });
    const first = await push();
    expect(first.item).toMatchObject({ state: 'queued', blocked: 'billing', last_error: expect.stringMatching(/^billing required/) });
    expect(fake.datasets()).toEqual([expect.objectContaining({ status: 'pending' })]);
    await engine.call('sync.now', {});
    expectOneDataset();
  });

  it('marks the item failed with the platform reason on another 4xx, and sends it again only when asked', async () => {
    fake.fault('POST /datasets', { kind: 'status', status: 400, body: { error: 'name is taken' } });
    const first = await push();
    expect(first.item).toMatchObject({ state: 'failed', last_error: expect.stringContaining('name is taken') });
    expect((await engine.call('sync.now', {})).attempted).toBe(0);
    const retried = await engine.call('sync.now', { retry_failed: true });
    expect(retried).toMatchObject({ done: 1, outbox: { failed: 0, done: 1 } });
    expectOneDataset();
  });

  it('leaves the item queued with the error when the platform stays down, and finishes on the next sync', async () => {
    fake.fault('POST /datasets/:id/finalize', { kind: 'status', status: 503, times: 3 });
    const first = await push();
    expect(first.item).toMatchObject({ state: 'queued', blocked: null, last_error: expect.stringContaining('503') });
    expect(ready()).toHaveLength(0);
    expect((await engine.call('sync.now', {})).done).toBe(1);
    expectOneDataset();
  });
});

describe('pull and list', () => {
  it('lists the account datasets and pulls one (several parts, no final newlines) into a new local dataset', async () => {
    const parted = await startFakeWhilePlatform({ partRows: 50 });
    try {
      useFake(parted, home);
      signIn(parted, home);
      await push({ gate: false });
      const [remote] = await engine.call('sync.datasets', {});
      expect(remote).toMatchObject({ name: 'airline-v3', rows: ROWS });
      const pulled = await engine.call('sync.pull', { remote_id: String(remote.datasetId) });
      expect(pulled).toMatchObject({ rows_imported: ROWS, rows_skipped: 0, parts: 3 });
      const local = await engine.call('datasets.get', { id: pulled.dataset_id! });
      expect(local).toMatchObject({ name: 'airline-v3', rows: ROWS, source: `while:${String(remote.datasetId)}` });
      await expect(engine.call('sync.pull', { remote_id: 'ds_nope' })).rejects.toMatchObject({ code: 'failed', message: expect.stringContaining('404') });
    } finally {
      await parted.close();
    }
  });
});
