// The saved key, shared with the SDK's `wai` CLI: `credentials.json` and `pending-login.json` in the SDK's format
// (platform-api §1.3, §2.6): under WHILEAI_HOME or ~/.whileai, JSON with a 2-space indent and a final newline,
// non-ASCII escaped as Python's json.dumps does, mode 0600, written to `<file>.tmp` and renamed over the target.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_API_URL, RETIRED_API_URLS, setting, type Env } from './hosts';

export interface SavedCredentials {
  api_key: string;
  api_url: string;
  name?: string;
  user_id?: string;
  created_at?: string;
  email?: string;
  tier?: string;
  daily_input_tokens?: number;
  expires_at?: string;
  [field: string]: unknown;
}

/** The /device/code reply, plus the base URL it came from and when it expires (epoch seconds). */
export interface PendingLogin {
  device_code: string;
  user_code: string;
  verification_uri?: string;
  verification_uri_complete?: string;
  expires_in?: number;
  interval?: number;
  api_url: string;
  expires_at: number;
  [field: string]: unknown;
}

export function configDir(env: Env): string {
  return setting(env, 'HOME') ?? path.join(os.homedir(), '.whileai');
}

export const credentialsPath = (env: Env) => path.join(configDir(env), 'credentials.json');
export const pendingPath = (env: Env) => path.join(configDir(env), 'pending-login.json');

/** JSON as Python's `json.dumps(value, indent=2)` writes it: ASCII only, `\uXXXX` escapes. */
export function pythonJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`) + '\n';
}

/** Writes `file.tmp` (0600), then renames it over `file`: a reader sees the old file or the new one, never half. */
export function writeJsonAtomic(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.tmp`;
  fs.writeFileSync(temp, pythonJson(value), { mode: 0o600 });
  try {
    fs.chmodSync(temp, 0o600);
  } catch {
    // Windows has no such modes; the SDK ignores this too
  }
  fs.renameSync(temp, file);
}

/** A file that cannot be read or parsed, or holds no JSON object, counts as absent. */
function readObject(file: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export function readCredentials(env: Env): SavedCredentials | undefined {
  const saved = readObject(credentialsPath(env));
  if (!saved || typeof saved.api_key !== 'string' || !saved.api_key) return undefined;
  const apiUrl = typeof saved.api_url === 'string' && saved.api_url ? saved.api_url.replace(/\/+$/, '') : DEFAULT_API_URL;
  return { ...saved, api_key: saved.api_key, api_url: RETIRED_API_URLS.includes(apiUrl) ? DEFAULT_API_URL : apiUrl };
}

/** UTC to the second, as the SDK stamps `created_at`: 2026-09-19T10:00:00Z. */
export function utcStamp(date = new Date()): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function writeCredentials(env: Env, credentials: SavedCredentials): string {
  const file = credentialsPath(env);
  writeJsonAtomic(file, credentials);
  return file;
}

export function readPending(env: Env): PendingLogin | undefined {
  const pending = readObject(pendingPath(env));
  if (!pending || typeof pending.device_code !== 'string' || typeof pending.user_code !== 'string') return undefined;
  return pending as PendingLogin;
}

export function writePending(env: Env, pending: PendingLogin): void {
  writeJsonAtomic(pendingPath(env), pending);
}

export function removeFile(file: string): boolean {
  try {
    fs.unlinkSync(file);
    return true;
  } catch {
    return false;
  }
}
