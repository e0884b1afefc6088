// Pushing to storage that frames a PUT as S3 does (platform-api §2, §8.4): a chunked body gets 501 NotImplemented
// and a body of no stated length 411. Every presigned PUT states its Content-Length; a refusal of that kind is not
// retried; an item that fails the same way again and again stops and says so; `sync` waits on back-offs when asked.
import net from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../main/engine/engine';
import { startFakeWhilePlatform, type FakeWhilePlatform } from '../fixtures/fake-while-platform.mjs';
import { engineWithRows, signIn, tempDir, useFake } from './sync-helpers';

const ROWS = 120;
let fake: FakeWhilePlatform;
let engine: Engine;
let datasetId: string;

beforeAll(async () => {
  fake = await startFakeWhilePlatform();
});
afterAll(() => fake.close());
beforeEach(async () => {
  fake.reset();
  const dir = tempDir('wd-sync-storage-');
  const home = path.join(dir, 'whileai');
  useFake(fake, home);
  process.env.WHILE_DESK_OUTBOX_BACKOFF_MS = '20';
  ({ engine, datasetId } = await engineWithRows(dir, ROWS));
  signIn(fake, home);
});
afterEach(() => {
  delete process.env.WHILE_DESK_OUTBOX_BACKOFF_MS;
  return engine.close();
});

const push = (extra: Record<string, unknown> = {}) => engine.call('sync.push', { dataset_id: datasetId, name: 'airline-v3', ...extra });
const puts = () => fake.requests.filter((r) => r.route === 'PUT /_s3/:id');

/** A PUT written by hand on a socket (Node's client would add a length of 0 to a PUT with no body): chunked, or unsized. */
function rawPut(url: string, framing: 'chunked' | 'no-length'): Promise<{ status: number; text: string }> {
  const target = new URL(url);
  const head = [`PUT ${target.pathname}${target.search} HTTP/1.1`, `Host: ${target.host}`, 'Connection: close', ...(framing === 'chunked' ? ['Transfer-Encoding: chunked'] : [])];
  const body = framing === 'chunked' ? '10\r\n{"prompt":"a"}\n\r\n0\r\n\r\n' : '';
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(target.port), target.hostname, () => socket.end(`${head.join('\r\n')}\r\n\r\n${body}`));
    let reply = '';
    socket.on('data', (chunk) => (reply += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(reply)?.[1] ?? 0), text: reply }));
  });
}

describe('storage that answers as S3 does', () => {
  it('the fake refuses a chunked PUT with 501 NotImplemented and a PUT of no length with 411', async () => {
    const created = await fetch(`${fake.url}/datasets`, { method: 'POST', headers: { 'x-api-key': fake.addKey(), 'content-type': 'application/json' }, body: '{"name":"raw"}' });
    const { uploadUrl } = (await created.json()) as { uploadUrl: string };
    const chunked = await rawPut(uploadUrl, 'chunked');
    expect(chunked.status).toBe(501);
    expect(chunked.text).toMatch(/<Code>NotImplemented<\/Code>.*<Header>Transfer-Encoding<\/Header>/s);
    const unsized = await rawPut(uploadUrl, 'no-length');
    expect(unsized.status).toBe(411);
    expect(unsized.text).toContain('<Code>MissingContentLength</Code>');
  });

  it('every PUT of a push states its Content-Length, gated or not, train and holdout, and nothing goes chunked', async () => {
    const gated = await push({ holdout: 0.25 });
    expect(gated.item.state).toBe('done');
    await push({ gate: false, name: 'plain' });
    expect(puts()).toHaveLength(3);
    for (const put of puts()) {
      expect(put).toMatchObject({ status: 200, transferEncoding: null });
      expect(put.contentLength).toBe(put.bytes);
      expect(put.bytes).toBeGreaterThan(0);
    }
    const sets = fake.datasets();
    expect(sets.map((ds) => ds.status)).toEqual(['ready', 'ready', 'ready']);
    expect(sets.find((ds) => ds.name === 'plain')?.rows).toBe(ROWS);
    const train = sets.find((ds) => ds.name === 'airline-v3')!;
    const holdout = sets.find((ds) => ds.name === 'airline-v3-holdout')!;
    expect(train.rows + holdout.rows).toBe(ROWS);
    expect(fake.datasetRows(train.datasetId).every((row) => row.calibration)).toBe(true);
  });

  it('a storage refusal (501) is not retried: the item fails at once, says what storage refused, and goes again only when asked', async () => {
    const xml = '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NotImplemented</Code><Message>A header you provided implies functionality that is not implemented</Message><Header>Transfer-Encoding</Header></Error>';
    fake.fault('PUT /_s3/:id', { kind: 'status', status: 501, body: xml });
    const first = await push();
    expect(puts()).toHaveLength(1);
    expect(first.item.state).toBe('failed');
    expect(first.item.last_error).toMatch(/storage host refused the upload.*501.*NotImplemented.*header Transfer-Encoding/);
    expect((await engine.call('sync.now', {})).attempted).toBe(0);
    expect(puts()).toHaveLength(1);
    const retried = await engine.call('sync.now', { retry: [first.item.id] });
    expect(retried).toMatchObject({ done: 1, outbox: { failed: 0, done: 1, queued: 0 } });
    expect(fake.datasets()).toEqual([expect.objectContaining({ status: 'ready', rows: ROWS })]);
  });

  it('an item that fails the same way five times in a row stops retrying and says so; a retry by id sends it once', async () => {
    fake.fault('POST /datasets/:id/finalize', { kind: 'status', status: 503, times: 1000 });
    const { item } = await push();
    for (let tries = 1; tries < 5; tries++) {
      const [seen] = (await engine.call('sync.outbox', {})).filter((candidate) => candidate.id === item.id);
      expect(seen).toMatchObject({ state: 'queued', same_failures: tries, attempts: tries });
      await engine.call('sync.now', {});
    }
    const [stopped] = await engine.call('sync.outbox', {});
    expect(stopped).toMatchObject({ state: 'failed', same_failures: 5, attempts: 5, last_error: expect.stringMatching(/stopped retrying after 5 tries in a row that failed the same way.*503/) });
    expect((await engine.call('sync.now', { wait_s: 1 })).attempted).toBe(0);
    fake.clearFaults();
    await expect(engine.call('sync.now', { retry: [item.id + 100] })).rejects.toMatchObject({ code: 'not_found' });
    const retried = await engine.call('sync.now', { retry: [item.id] });
    expect(retried).toMatchObject({ done: 1, outbox: { done: 1, failed: 0 } });
    expect((await engine.call('sync.outbox', {}))[0]).toMatchObject({ state: 'done', same_failures: 0 });
    expect(fake.datasets()).toEqual([expect.objectContaining({ status: 'ready', rows: ROWS })]);
    await expect(engine.call('sync.now', { retry: [item.id] })).rejects.toMatchObject({ code: 'bad_input' });
  });

  it('one pass says when the next try is; wait_s keeps trying through the back-offs until the outbox is drained', async () => {
    // Three tries a drain (WHILE_DESK_SYNC_TRIES): the push and the next pass fail, the third pass goes through.
    fake.fault('POST /datasets/:id/finalize', { kind: 'status', status: 503, times: 6 });
    const first = await push();
    expect(first.sent).toMatchObject({ done: 0, waiting: 1, next_try_at: expect.any(String) });
    const waited = await engine.call('sync.now', { wait_s: 30 });
    expect(waited).toMatchObject({ done: 1, next_try_at: null, outbox: { queued: 0, failed: 0, done: 1 } });
    expect(waited.attempted).toBe(2);
    expect(fake.datasets()).toEqual([expect.objectContaining({ status: 'ready', rows: ROWS })]);
  });
});
