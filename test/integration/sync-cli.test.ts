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

function cli(args: string[], onStdout?: (text: string) => void): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const env: NodeJS.ProcessEnv = { ...process.env, WHILEAI_HOME: home, WHILEAI_API_URL: fake.url, WHILEAI_PLATFORM_URL: fake.url, WHILE_DESK_SYNC_BACKOFF_MS: '5' };
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
});
