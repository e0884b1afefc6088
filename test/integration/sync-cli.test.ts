// The account commands through the CLI bundle against the fake: login (--no-wait, then resumed until approved),
// status with the key masked, push, outbox, pull, logout; exit codes as the SDK's CLI has them.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, buildEngine, root } from './sim-run-helpers';
import { startFakeWhilePlatform, type FakeWhilePlatform } from '../fixtures/fake-while-platform.mjs';
import { tempDir, writeRows } from './sync-helpers';

let fake: FakeWhilePlatform;
const dir = tempDir('wd-sync-cli-');
const home = path.join(dir, 'whileai');
const db = path.join(dir, 'desk.sqlite');

function cli(args: string[], onStdout?: (text: string) => void, extraEnv: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const env: NodeJS.ProcessEnv = { ...process.env, WHILEAI_HOME: home, WHILEAI_API_URL: fake.url, WHILEAI_PLATFORM_URL: fake.url, WHILE_DESK_SYNC_BACKOFF_MS: '5', ...extraEnv };
    delete env.WHILEAI_API_KEY;
    const child = spawn(process.execPath, [bin, ...args, '--db', db], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      onStdout?.(stdout);
    });
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  await buildEngine();
  fake = await startFakeWhilePlatform({ deviceInterval: 0 });
}, 120_000);
afterAll(() => fake.close());

describe('while-desk login, status, push, outbox, pull, logout', () => {
  it('runs the whole account loop', async () => {
    const noKey = await cli(['status']);
    expect(noKey.code).toBe(0);
    expect(noKey.stdout).toContain('key        none');
    expect(fake.requests).toHaveLength(0);

    const started = await cli(['login', '--no-wait', '--name', 'cli test']);
    expect(started.code).toBe(0);
    const code = /code: (\S+)/.exec(started.stdout)![1];
    expect(fs.existsSync(path.join(home, 'pending-login.json'))).toBe(true);
    // The second login resumes the same code; it is approved while it waits.
    const resumed = await cli(['login'], (text) => {
      if (text.includes('code:')) setTimeout(() => fake.approve(code, 'user_7'), 50);
    });
    expect(resumed.stdout).toContain('Resuming the login you started');
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain(`Logged in. Key saved to ${path.join(home, 'credentials.json')}`);
    const saved = JSON.parse(fs.readFileSync(path.join(home, 'credentials.json'), 'utf8')) as { api_key: string; user_id: string };
    expect(saved.user_id).toBe('user_7');

    const status = JSON.parse((await cli(['status', '--json'])).stdout) as { key: string; tier: string; source: string };
    expect(status).toMatchObject({ source: 'file', tier: 'full', key: `${saved.api_key.slice(0, 7)}...${saved.api_key.slice(-4)}` });
    const human = await cli(['status']);
    expect(human.stdout + human.stderr).not.toContain(saved.api_key);

    const imported = JSON.parse((await cli(['import', writeRows(path.join(dir, 'rows.jsonl'), 40), '--json'])).stdout) as { dataset_id: string };
    const pushed = await cli(['push', imported.dataset_id, '--name', 'cli-set', '--purpose', 'eval', '--holdout', '0.25']);
    expect(pushed.code, pushed.stderr).toBe(0);
    expect(pushed.stdout).toMatch(/^pushed ds-\w+ as ds_\w+ \(\d+ rows\), holdout ds_\w+ \(\d+ rows, \d+ tasks\)/);
    const outbox = await cli(['outbox']);
    expect(outbox.stdout).toMatch(/done/);
    const remote = fake.datasets().find((ds) => ds.name === 'cli-set')!;
    const pulled = await cli(['pull', remote.datasetId]);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(pulled.stdout).toContain(`(${remote.rows} rows)`);
    expect((await cli(['push', imported.dataset_id, '--purpose', 'nope', '--name', 'x'])).code).toBe(2);

    fake.fault('POST /datasets', { kind: 'status', status: 400, body: { error: 'quota exceeded' }, times: 1 });
    const refused = await cli(['push', imported.dataset_id, '--name', 'over', '--no-gate']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('quota exceeded');
    const synced = await cli(['sync']);
    expect(synced.code).toBe(1); // an item remains failed
    expect(synced.stderr).toContain('--retry-failed');
    expect((await cli(['sync', '--retry-failed'])).code).toBe(0);

    const out = await cli(['logout']);
    expect(out.stdout).toContain('the saved key was removed');
    expect(fs.existsSync(path.join(home, 'credentials.json'))).toBe(false);
    const before = fake.requests.length;
    expect((await cli(['sync'])).code).toBe(1);
    expect(fake.requests.length).toBe(before); // signed out: nothing sent
  });

  it('sync says when the next try is, --wait keeps trying until the outbox is drained, --retry ID tries a failed item again', async () => {
    fake.reset();
    const key = fake.addKey();
    fs.mkdirSync(home, { recursive: true });
    fs.writeFileSync(path.join(home, 'credentials.json'), JSON.stringify({ api_key: key, api_url: fake.url }) + '\n', { mode: 0o600 });
    const imported = JSON.parse((await cli(['import', writeRows(path.join(dir, 'rows-wait.jsonl'), 20), '--json'])).stdout) as { dataset_id: string };
    const backoff = { WHILE_DESK_SYNC_TRIES: '2', WHILE_DESK_OUTBOX_BACKOFF_MS: '400' };
    // The push and one sync fail (two tries each); the item then waits on its back-off.
    fake.fault('POST /datasets/:id/finalize', { kind: 'status', status: 503, times: 4 });
    expect((await cli(['push', imported.dataset_id, '--name', 'waits', '--no-gate'], undefined, backoff)).code).toBe(1);
    const once = await cli(['sync'], undefined, backoff);
    expect(once.code).toBe(1);
    expect(once.stderr).toMatch(/1 item\(s\) wait on a back-off; the next try is at \d\d:\d\d:\d\d \(in \d+ s\)/);
    const json = JSON.parse((await cli(['outbox', '--json'])).stdout) as Array<{ state: string; next_try_at: string | null; same_failures: number }>;
    expect(json[0]).toMatchObject({ state: 'queued', next_try_at: expect.any(String), same_failures: 2 });
    const waited = await cli(['sync', '--wait', '30', '--json'], undefined, backoff);
    expect(waited.code, waited.stderr).toBe(0);
    expect(JSON.parse(waited.stdout)).toMatchObject({ done: 1, next_try_at: null, outbox: { queued: 0, failed: 0 } });
    expect(fake.datasets()).toEqual([expect.objectContaining({ name: 'waits', status: 'ready', rows: 20 })]);

    fake.fault('PUT /_s3/:id', { kind: 'status', status: 411, body: '<Error><Code>MissingContentLength</Code><Message>You must provide the Content-Length HTTP header.</Message></Error>' });
    const refused = await cli(['push', imported.dataset_id, '--name', 'refused', '--no-gate', '--json']);
    const item = (JSON.parse(refused.stdout) as { item: { id: number; state: string; last_error: string } }).item;
    expect(item).toMatchObject({ state: 'failed', last_error: expect.stringContaining('MissingContentLength') });
    const listed = await cli(['outbox']);
    expect(listed.stdout).toContain('MissingContentLength');
    expect(listed.stderr).toContain(`while-desk sync --retry ${item.id}`);
    expect((await cli(['sync', '--retry', 'x'])).code).toBe(2);
    const retried = await cli(['sync', '--retry', String(item.id)]);
    expect(retried.code, retried.stderr).toBe(0);
    expect(fake.datasets().filter((ds) => ds.status === 'ready').map((ds) => ds.name).sort()).toEqual(['refused', 'waits']);
  });
});
