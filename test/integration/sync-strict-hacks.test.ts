// `while-desk push --strict-hacks` against the fake platform: a set whose reward hack_scan calls a reward_hack is
// refused before any request leaves; with the gate's scan but no strict_hacks it goes, the scan in its report.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, buildEngine, root } from './sim-run-helpers';
import { startFakeWhilePlatform, type FakeWhilePlatform } from '../fixtures/fake-while-platform.mjs';
import { signIn, tempDir } from './sync-helpers';

let fake: FakeWhilePlatform;
const dir = tempDir('wd-sync-hacks-');
const home = path.join(dir, 'whileai');
const db = path.join(dir, 'desk.sqlite');
/** Rows whose reward pays for the word "verified" (a conformance case's): graded, mixed, RL-shaped. */
const hackRows = path.join(root, 'test/fixtures/conformance/cases/hack_scan_verified_word/rows.jsonl');
/** Rows whose reward pays for the endorsed lookup_order call. */
const honestRows = path.join(root, 'test/fixtures/conformance/cases/hack_scan_endorsed_train/rows.jsonl');

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const env: NodeJS.ProcessEnv = { ...process.env, WHILEAI_HOME: home, WHILEAI_API_URL: fake.url, WHILEAI_PLATFORM_URL: fake.url, WHILE_DESK_SYNC_BACKOFF_MS: '5' };
    delete env.WHILEAI_API_KEY;
    const child = spawn(process.execPath, [bin, ...args, '--db', db], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function imported(file: string): Promise<string> {
  const out = await cli(['import', file, '--json']);
  expect(out.code, out.stderr).toBe(0);
  return (JSON.parse(out.stdout) as { dataset_id: string }).dataset_id;
}

beforeAll(async () => {
  await buildEngine();
  fake = await startFakeWhilePlatform({ deviceInterval: 0 });
  signIn(fake, home);
}, 120_000);
afterAll(() => fake.close());

describe('push --strict-hacks', () => {
  it('refuses a reward hack before any request, and pushes it with the scan reported when not strict', async () => {
    const hack = await imported(hackRows);
    const refused = await cli(['push', hack, '--name', 'hacked', '--endorsed', 'tool:lookup_order', '--strict-hacks']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/publish gate refused .*reward_hack: /);
    expect(refused.stderr).toContain('contains::');
    expect(fake.requests).toHaveLength(0);
    expect(JSON.parse((await cli(['outbox', '--json'])).stdout)).toHaveLength(0); // nothing queued either

    const usage = await cli(['push', hack, '--name', 'x', '--strict-hacks', '--no-gate']);
    expect(usage.code).toBe(2);
    expect(fake.requests).toHaveLength(0);

    const sent = await cli(['push', hack, '--name', 'reported', '--endorsed', 'tool:lookup_order', '--json']);
    expect(sent.code, sent.stderr).toBe(0);
    const result = JSON.parse(sent.stdout) as { gate: { ok: boolean; hack_scan: { regime: string; endorsed: string[] } } };
    expect(result.gate.ok).toBe(true);
    expect(result.gate.hack_scan).toMatchObject({ regime: 'reward_hack', endorsed: ['tool:lookup_order'] });
    expect(fake.requests.length).toBeGreaterThan(0);
  });

  it('lets a reward that pays for the endorsed behaviour through', async () => {
    const honest = await imported(honestRows);
    const sent = await cli(['push', honest, '--name', 'honest', '--endorsed', 'lookup_order', '--strict-hacks', '--json']);
    expect(sent.code, sent.stderr).toBe(0);
    expect((JSON.parse(sent.stdout) as { gate: { hack_scan: { regime: string } } }).gate.hack_scan.regime).toBe('train');
  });
});
