// Automatic sync starts when a long-lived engine opens (the app, `serve`), if the person turned it on, and the
// While key's copy in the OS keychain: kept at sign-in and open, used when credentials.json is gone, removed at
// logout, under a name no agent's `--api-key-env` can reach.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createEngine } from '../../main/engine/engine';
import type { SecretStore } from '../../main/engine/secret-store';
import { resolveApiKey } from '../../main/agents/api-key';
import { setAutoSync } from '../../main/sync/auto-sync';
import { WHILE_KEY_SECRET } from '../../main/sync/keychain-key';
import { startFakeWhilePlatform, type FakeWhilePlatform } from '../fixtures/fake-while-platform.mjs';
import { engineWithRows, signIn, tempDir, useFake } from './sync-helpers';

let fake: FakeWhilePlatform;
let dir: string;
let home: string;

beforeAll(async () => {
  fake = await startFakeWhilePlatform();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.reset();
  dir = tempDir('wd-sync-auto-open-');
  home = path.join(dir, 'whileai');
  useFake(fake, home);
});

/** An OS keychain in memory, as the app's parent-secret-store answers. */
function memoryKeychain(): SecretStore & { entries: Map<string, string> } {
  const entries = new Map<string, string>();
  return {
    entries,
    list: async () => [...entries.keys()].sort(),
    get: async (name) => entries.get(name),
    set: async (name, value) => void entries.set(name, value),
    delete: async (name) => entries.delete(name),
  };
}

/** A push queued (not sent) in one session, which then closes; returns the database path. */
async function queuedPush(auto: boolean): Promise<string> {
  const { engine, datasetId } = await engineWithRows(dir, 40);
  await engine.call('sync.push', { dataset_id: datasetId, name: 'queued-then-closed', send: false, gate: false });
  if (auto) setAutoSync(engine.ctx.db, true); // the setting only: setAuto would drain right away
  await engine.close();
  return path.join(dir, 'desk.sqlite');
}

describe('automatic sync on open', () => {
  it('drains what an earlier session queued as soon as the engine opens, with no sync call', async () => {
    signIn(fake, home);
    const dbPath = await queuedPush(true);
    expect(fake.datasets()).toHaveLength(0);
    const engine = createEngine({ dbPath, autoSync: true });
    try {
      await vi.waitFor(() => expect(fake.datasets()).toHaveLength(1), { timeout: 5000, interval: 20 });
      await vi.waitFor(async () => expect((await engine.call('sync.outbox', {}))[0].state).toBe('done'), { timeout: 5000, interval: 20 });
    } finally {
      await engine.close();
    }
  });

  it('sends nothing on open when it is off, or when nobody signed in', async () => {
    signIn(fake, home);
    const dbPath = await queuedPush(false);
    await createEngine({ dbPath, autoSync: true }).close();
    fs.rmSync(path.join(home, 'credentials.json'));
    const engine = createEngine({ dbPath, autoSync: true });
    setAutoSync(engine.ctx.db, true);
    await engine.close();
    await createEngine({ dbPath, autoSync: true }).close();
    expect(fake.requests).toHaveLength(0);
  });
});

describe('the While key in the OS keychain', () => {
  it('is copied at open, stands in when credentials.json is gone, is out of agents\' reach, and goes at logout', async () => {
    const key = signIn(fake, home);
    const keychain = memoryKeychain();
    const dbPath = path.join(dir, 'desk.sqlite');
    await createEngine({ dbPath, secrets: keychain, autoSync: true }).close();
    expect(keychain.entries.get(WHILE_KEY_SECRET)).toBe(key);

    fs.rmSync(path.join(home, 'credentials.json'));
    const engine = createEngine({ dbPath, secrets: keychain, autoSync: true });
    try {
      await vi.waitFor(async () => expect(await engine.call('sync.status', { online: false })).toMatchObject({ source: 'keychain' }), { timeout: 5000, interval: 20 });
      const status = await engine.call('sync.status', { online: false });
      expect(JSON.stringify(status)).not.toContain(key); // masked, never whole
      // An agent names keys by environment-variable names only: the While key's name is none.
      await expect(resolveApiKey({ envName: WHILE_KEY_SECRET, baseUrl: 'https://api.openai.example/v1', env: {} })).rejects.toThrow(/environment variable/);
      await expect(engine.call('secrets.delete', { name: WHILE_KEY_SECRET })).rejects.toMatchObject({ code: 'bad_input' });
      await engine.call('sync.logout', {});
      expect(keychain.entries.has(WHILE_KEY_SECRET)).toBe(false);
      expect((await engine.call('sync.status', { online: false })).source).toBeNull();
    } finally {
      await engine.close();
    }
  });

  it('is kept at sign-in (the device flow)', async () => {
    const keychain = memoryKeychain();
    const engine = createEngine({ dbPath: path.join(dir, 'desk.sqlite'), secrets: keychain });
    try {
      const begun = await engine.call('sync.loginBegin', {});
      fake.approve(begun.user_code, 'user_3');
      const polled = await engine.call('sync.loginPoll', { wait_s: 5 });
      expect(polled.state).toBe('approved');
      const saved = JSON.parse(fs.readFileSync(path.join(home, 'credentials.json'), 'utf8')) as { api_key: string };
      expect(keychain.entries.get(WHILE_KEY_SECRET)).toBe(saved.api_key);
    } finally {
      await engine.close();
    }
  });
});
