// Device login, signup, status and logout against the fake platform (platform-api §2.4-2.5).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeWhilePlatform, type FakeWhilePlatform } from '../../fixtures/fake-while-platform.mjs';
import { accountStatus, logout, signup, SignupError } from '../../../main/sync/account';
import { PlatformClient } from '../../../main/sync/client';
import { readCredentials, readPending } from '../../../main/sync/credentials';
import { beginLogin, LoginError, pollLogin } from '../../../main/sync/device-login';

let fake: FakeWhilePlatform;
let env: Record<string, string>;
const fast = { tries: 3, baseMs: 1, maxMs: 2 };
const client = () => new PlatformClient({ env, retry: fast, timeoutMs: 2000 });

beforeAll(async () => {
  fake = await startFakeWhilePlatform();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.reset();
  env = { WHILEAI_HOME: fs.mkdtempSync(path.join(os.tmpdir(), 'wd-login-')), WHILEAI_API_URL: fake.url };
});

describe('device login', () => {
  it('shows a code, polls while pending, saves the key on approval and forgets the pending flow', async () => {
    const { flow, resumed } = await beginLogin(client(), 'cli laptop');
    expect(resumed).toBe(false);
    expect(flow).toMatchObject({ api_url: fake.url, user_code: expect.stringMatching(/^[0-9A-F]{4}-[0-9A-F]{4}$/) });
    expect(readPending(env)?.device_code).toBe(flow.device_code);
    if (process.platform !== 'win32') expect(fs.statSync(path.join(env.WHILEAI_HOME, 'pending-login.json')).mode & 0o777).toBe(0o600);

    const waits: number[] = [];
    let polls = 0;
    const result = await pollLogin(client(), flow, {
      sleep: async (ms) => {
        waits.push(ms);
        if (++polls === 3) fake.approve(flow.user_code, 'user_9');
      },
    });
    expect(result).toMatchObject({ state: 'approved', name: 'cli laptop', user_id: 'user_9' });
    expect(fake.requests.filter((r) => r.route === 'POST /device/token')).toHaveLength(4);
    const saved = readCredentials(env)!;
    expect(saved).toMatchObject({ api_url: fake.url, name: 'cli laptop', user_id: 'user_9', tier: 'full', created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/) });
    expect(saved.api_key).toMatch(/^zp_[A-Za-z0-9_-]{48}$/);
    expect(readPending(env)).toBeUndefined();
    // /me was called with the new key, and only after approval
    expect(fake.requests.find((r) => r.route === 'GET /me')?.apiKey).toBe(saved.api_key);
  });

  it('resumes a pending flow for the same API instead of asking for a new code', async () => {
    const first = await beginLogin(client(), 'x');
    const again = await beginLogin(client(), 'x');
    expect(again).toMatchObject({ resumed: true, flow: { device_code: first.flow.device_code } });
    expect(fake.requests.filter((r) => r.route === 'POST /device/code')).toHaveLength(1);
  });

  it('adds 5 s to the interval for good on slow_down', async () => {
    const { flow } = await beginLogin(client(), 'x');
    fake.fault('POST /device/token', { kind: 'status', status: 400, body: { error: 'slow_down' } });
    const waits: number[] = [];
    await pollLogin(client(), { ...flow, interval: 1 }, { sleep: async (ms) => void (waits.push(ms), waits.length === 3 && fake.approve(flow.user_code)) });
    expect(waits).toEqual([6000, 6000, 6000]);
  });

  it('keeps the pending file when the wait runs out, and deletes it when the code expired', async () => {
    const { flow } = await beginLogin(client(), 'x');
    expect(await pollLogin(client(), flow, { timeoutS: 0 })).toMatchObject({ state: 'pending', message: expect.stringContaining('Still waiting') });
    expect(readPending(env)).toBeDefined();
    fake.expireDeviceCodes();
    await expect(pollLogin(client(), flow, { sleep: async () => {} })).rejects.toThrow(/That code expired/);
    expect(readPending(env)).toBeUndefined();
    expect(readCredentials(env)).toBeUndefined();
  });

  it('tolerates five network failures in a row and gives up on the sixth', async () => {
    const { flow } = await beginLogin(client(), 'x');
    fake.fault('POST /device/token', { kind: 'reset', times: 5 });
    let polls = 0;
    const ok = await pollLogin(client(), flow, { sleep: async () => void (++polls === 5 && fake.approve(flow.user_code)) });
    expect(ok.state).toBe('approved');
    const second = await beginLogin(client(), 'y');
    fake.fault('POST /device/token', { kind: 'reset', times: 6 });
    await expect(pollLogin(client(), second.flow, { sleep: async () => {} })).rejects.toThrow(LoginError);
  });
});

describe('signup, status, logout', () => {
  it('signs up a trial, refuses a known email and a non-address, reports status with the key masked', async () => {
    await expect(signup(client(), 'nobody', 'x')).rejects.toThrow(SignupError);
    expect(fake.requests).toHaveLength(0); // refused before sending
    const made = await signup(client(), 'Agent@Example.com', 'claude-code');
    expect(made.tier).toBe('trial');
    const saved = readCredentials(env)!;
    expect(saved).toMatchObject({ email: 'agent@example.com', tier: 'trial', daily_input_tokens: 25000, expires_at: '2026-09-21T00:00:00.000Z', name: 'claude-code' });
    await expect(signup(client(), 'agent@example.com', 'x')).rejects.toThrow(/account_exists|already has an account/);

    const status = await accountStatus(client(), true);
    expect(status).toMatchObject({ configured: true, source: 'file', tier: 'trial', key: `${saved.api_key.slice(0, 7)}...${saved.api_key.slice(-4)}`, limits: { dailyInputTokens: 25000 } });
    expect(JSON.stringify(status)).not.toContain(saved.api_key);

    expect(logout(client())).toEqual({ removed: true });
    expect(logout(client())).toEqual({ removed: false });
    const before = fake.requests.length;
    expect(await accountStatus(client(), true)).toMatchObject({ configured: false, key: null, tier: null });
    expect(fake.requests.length).toBe(before); // no key: nothing sent
  });

  it('says the tier is unknown when /me fails', async () => {
    env.WHILEAI_API_KEY = fake.addKey();
    fake.fault('GET /me', { kind: 'unauthorized', times: 5 });
    expect((await accountStatus(client(), true)).tier).toBe('unknown (Invalid API key)');
  });
});
