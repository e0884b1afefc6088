// The While key reaches the While hosts only: never an OpenAI-compatible endpoint on another port or host
// name, never a storage host behind a presigned URL, never a log line or an error message.
import http from 'node:http';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../main/engine/engine';
import { PlatformClient } from '../../main/sync/client';
import { send } from '../../main/sync/http';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../fixtures/fake-openai-server.mjs';
import { startFakeWhilePlatform, type FakeWhilePlatform } from '../fixtures/fake-while-platform.mjs';
import { engineWithRows, signIn, tempDir, useFake } from './sync-helpers';

/** A server that only records what reached it: every header of every request. */
async function recorder(): Promise<{ url: string; headers: http.IncomingHttpHeaders[]; close(): Promise<void> }> {
  const headers: http.IncomingHttpHeaders[] = [];
  const server = http.createServer((req, res) => {
    headers.push(req.headers);
    req.resume();
    req.on('end', () => res.end(req.method === 'GET' ? '{"prompt":"x","final_text":"y","steps":[],"reward":1,"schema_version":"1"}' : ''));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, headers, close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))) };
}

let openai: FakeOpenAiServer;
let storage: Awaited<ReturnType<typeof recorder>>;
let fake: FakeWhilePlatform;
let engine: Engine;
let datasetId: string;
let home: string;
let key: string;

beforeAll(async () => {
  openai = await startFakeOpenAiServer({ record: true });
  storage = await recorder();
  fake = await startFakeWhilePlatform({ storageUrl: storage.url });
});
afterAll(async () => {
  await Promise.all([openai.close(), storage.close(), fake.close()]);
});
beforeEach(async () => {
  const dir = tempDir('wd-sync-hosts-');
  home = path.join(dir, 'whileai');
  useFake(fake, home);
  key = signIn(fake, home);
  ({ engine, datasetId } = await engineWithRows(dir, 20));
});
afterEach(() => engine.close());

describe('the While key', () => {
  it('is refused for an OpenAI-compatible endpoint on another port and under another host name', async () => {
    const env = { WHILEAI_API_URL: fake.url };
    const localhostUrl = openai.baseUrl.replace('127.0.0.1', 'localhost');
    for (const url of [`${openai.baseUrl}/chat/completions`, `${localhostUrl}/chat/completions`, fake.url.replace('127.0.0.1', 'localhost') + '/me']) {
      await expect(send({ method: 'POST', url, apiKey: key, json: { model: 'm', messages: [] }, timeoutMs: 2000, env })).rejects.toMatchObject({ kind: 'refused', message: expect.not.stringContaining(key) });
    }
    await expect(send({ method: 'GET', url: `${openai.baseUrl}/models`, headers: { 'X-Api-Key': key }, timeoutMs: 2000, env })).rejects.toMatchObject({ kind: 'refused' });
    expect(openai.stats.requests).toBe(0);
  });

  it('goes with platform calls only; presigned storage URLs on another host get no key', async () => {
    const pushed = await engine.call('sync.push', { dataset_id: datasetId, name: 'elsewhere', gate: false });
    // The storage host took the upload (and kept nothing, so finalize says so and the item fails with the reason).
    expect(pushed.item).toMatchObject({ state: 'failed', last_error: expect.stringContaining('nothing uploaded') });
    expect(storage.headers).toHaveLength(1);
    expect(storage.headers[0]['x-api-key']).toBeUndefined();
    expect(storage.headers[0].authorization).toBeUndefined();
    expect(JSON.stringify(storage.headers)).not.toContain(key);
    for (const request of fake.requests) expect(request.route === null || request.apiKey === key).toBe(true);
  });

  it('never appears in the status, the outbox, or an error', async () => {
    fake.fault('POST /datasets', { kind: 'status', status: 400, body: { error: `bad key ${key}` } });
    const pushed = await engine.call('sync.push', { dataset_id: datasetId, name: 'x', gate: false });
    const status = await engine.call('sync.status', {});
    const outbox = await engine.call('sync.outbox', {});
    const text = JSON.stringify({ pushed, status, outbox });
    expect(text).not.toContain(key);
    expect(status.key).toBe(`${key.slice(0, 7)}...${key.slice(-4)}`);
    expect(new PlatformClient().requireKey()).toBe(key);
  });
});
