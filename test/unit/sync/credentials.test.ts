// The saved key in the SDK's format (platform-api §2.6): what the app writes reads as the SDK's, and back.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pythonJson, readCredentials, readPending, writeCredentials, writePending } from '../../../main/sync/credentials';
import { resolveKey } from '../../../main/sync/resolve-key';

const KEY = `zp_${'a'.repeat(48)}`;
const dirs: string[] = [];
function home(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wd-cred-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

// Written by Python: json.dumps(d, indent=2) + "\n", as the SDK's auth.py saves credentials.json.
const SDK_FILE =
  '{\n  "api_key": "zp_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",\n  "api_url": "https://api.while.ai",\n  "name": "cli caf\\u00e9",\n  "user_id": "user_1",\n  "created_at": "2026-09-19T10:00:00Z",\n  "tier": "trial",\n  "daily_input_tokens": 25000,\n  "expires_at": "2026-09-21T00:00:00.000Z"\n}\n';
const FIELDS = { api_key: KEY, api_url: 'https://api.while.ai', name: 'cli café', user_id: 'user_1', created_at: '2026-09-19T10:00:00Z', tier: 'trial', daily_input_tokens: 25000, expires_at: '2026-09-21T00:00:00.000Z' };

describe('credentials.json', () => {
  it('is written byte for byte as the SDK writes it, 0600, atomically, under WHILEAI_HOME', () => {
    const env = { WHILEAI_HOME: path.join(home(), 'nested', 'cfg') };
    const file = writeCredentials(env, FIELDS);
    expect(file).toBe(path.join(env.WHILEAI_HOME, 'credentials.json'));
    expect(fs.readFileSync(file, 'utf8')).toBe(SDK_FILE);
    expect(pythonJson(FIELDS)).toBe(SDK_FILE);
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.existsSync(`${file}.tmp`)).toBe(false);
  });

  it('reads the file the SDK wrote, and the key resolves from it', () => {
    const env = { WHILEAI_HOME: home() };
    fs.writeFileSync(path.join(env.WHILEAI_HOME, 'credentials.json'), SDK_FILE);
    expect(readCredentials(env)).toEqual(FIELDS);
    expect(resolveKey(env)).toEqual({ key: KEY, source: 'file' });
  });

  it('reads a retired api_url as the default, keeps other pinned hosts, and treats junk as absent', () => {
    const env = { WHILEAI_HOME: home() };
    const file = path.join(env.WHILEAI_HOME, 'credentials.json');
    fs.writeFileSync(file, JSON.stringify({ api_key: KEY, api_url: 'https://api.withwhile.com/' }));
    expect(readCredentials(env)?.api_url).toBe('https://api.while.ai');
    fs.writeFileSync(file, JSON.stringify({ api_key: KEY, api_url: 'https://staging.example.org' }));
    expect(readCredentials(env)?.api_url).toBe('https://staging.example.org');
    for (const junk of ['not json', '[1,2]', '"zp_x"', '{"api_url":"https://api.while.ai"}']) {
      fs.writeFileSync(file, junk);
      expect(readCredentials(env)).toBeUndefined();
    }
  });

  it('keeps pending-login.json in the same format', () => {
    const env = { WHILEAI_HOME: home() };
    const pending = { device_code: 'd'.repeat(64), user_code: 'ABCD-EFGH', interval: 5, expires_in: 900, api_url: 'https://api.while.ai', expires_at: 1758276000.25 };
    writePending(env, pending);
    expect(readPending(env)).toEqual(pending);
    expect(fs.readFileSync(path.join(env.WHILEAI_HOME, 'pending-login.json'), 'utf8')).toBe(pythonJson(pending));
  });
});

describe('key resolution (§2.3)', () => {
  it('takes explicit, then WHILEAI_DELEGATED_CREDENTIAL, then WHILEAI_API_KEY, then the saved key; empty counts as unset', () => {
    const WHILEAI_HOME = home();
    fs.writeFileSync(path.join(WHILEAI_HOME, 'credentials.json'), SDK_FILE);
    const env = { WHILEAI_HOME, WHILEAI_DELEGATED_CREDENTIAL: 'zp_dc_delegated', WHILEAI_API_KEY: 'zp_env' };
    expect(resolveKey(env, 'zp_explicit')).toEqual({ key: 'zp_explicit', source: 'explicit' });
    expect(resolveKey(env)).toEqual({ key: 'zp_dc_delegated', source: 'WHILEAI_DELEGATED_CREDENTIAL' });
    expect(resolveKey({ ...env, WHILEAI_DELEGATED_CREDENTIAL: '' })).toEqual({ key: 'zp_env', source: 'WHILEAI_API_KEY' });
    expect(resolveKey({ WHILEAI_HOME, WHILEAI_API_KEY: '' })).toEqual({ key: KEY, source: 'file' });
    expect(resolveKey({ WHILEAI_HOME: home() })).toBeUndefined();
  });
});
