// Device login (platform-api §2.4): start or resume a flow, poll until the person approves, save the key.
import os from 'node:os';
import type { PlatformClient } from './client';
import { pendingPath, readPending, removeFile, utcStamp, writeCredentials, writePending, type PendingLogin } from './credentials';
import { PlatformError } from './errors';
import { rememberAccount } from './account';

export class LoginError extends Error {}

/** "cli " + the host name up to the first dot, cut to 50 characters (§2.4). */
export function defaultKeyName(): string {
  return `cli ${os.hostname().split('.')[0] || 'cli'}`.slice(0, 50);
}

export interface LoginStart {
  flow: PendingLogin;
  resumed: boolean;
}

/** Resumes the pending flow when it is for this API and has over 30 s left; otherwise asks for a new code. */
export async function beginLogin(client: PlatformClient, name = defaultKeyName(), nowS = Date.now() / 1000): Promise<LoginStart> {
  const pending = readPending(client.env);
  if (pending && pending.api_url === client.urls.apiUrl && Number(pending.expires_at) - 30 > nowS) return { flow: pending, resumed: true };
  let reply: Record<string, unknown>;
  try {
    reply = await client.call<Record<string, unknown>>('auth', 'POST', '/device/code', { json: { name: name.slice(0, 50) }, noKey: true });
  } catch (error) {
    if (error instanceof PlatformError && error.kind === 'http') throw new LoginError(`Login could not start (${error.status}): ${error.reason}`);
    throw new LoginError(`Could not reach ${client.urls.apiUrl}: ${(error as Error).message}`);
  }
  if (!reply || typeof reply.device_code !== 'string') throw new LoginError(`Login could not start: ${JSON.stringify(reply).slice(0, 200)}`);
  const expiresIn = Number(reply.expires_in ?? 900) || 900;
  const flow = { ...reply, api_url: client.urls.apiUrl, expires_at: nowS + expiresIn } as PendingLogin;
  writePending(client.env, flow);
  return { flow, resumed: false };
}

export type PollResult =
  | { state: 'approved'; path: string; name: string; user_id: string | null }
  | { state: 'pending'; message: string };

export interface PollOptions {
  /** Give up waiting (keeping the pending file) after this many seconds; default: when the code expires. */
  timeoutS?: number;
  sleep?: (ms: number) => Promise<void>;
}

const MAX_NETWORK_FAILURES = 6;

/** Polls /device/token until approved, expired, or the deadline; slow_down adds 5 s to the interval for good. */
export async function pollLogin(client: PlatformClient, flow: PendingLogin, options: PollOptions = {}): Promise<PollResult> {
  const sleep = options.sleep ?? ((ms: number) => new Promise((resolve) => setTimeout(resolve, ms)));
  let interval = Math.max(1, Math.trunc(Number(flow.interval ?? 5) || 5));
  if (Number(flow.interval) === 0) interval = 0; // a test server may ask for no wait at all; the SDK's floor is 1 s
  const nowS = () => Date.now() / 1000;
  const deadline = Math.min(Number(flow.expires_at), options.timeoutS !== undefined ? nowS() + options.timeoutS : Infinity);
  let failures = 0;
  for (;;) {
    let reply: Record<string, unknown> | undefined;
    try {
      reply = await client.call<Record<string, unknown>>('auth', 'POST', '/device/token', { json: { device_code: flow.device_code, user_code: flow.user_code }, noKey: true, retry: false });
      failures = 0;
    } catch (error) {
      if (!(error instanceof PlatformError)) throw error;
      if (error.kind !== 'http') {
        if (++failures >= MAX_NETWORK_FAILURES) throw new LoginError(`Could not reach ${client.urls.apiUrl}: ${error.message}`);
      } else {
        failures = 0;
        if (error.reason === 'slow_down') interval += 5;
        else if (error.reason === 'expired_token') {
          removeFile(pendingPath(client.env));
          throw new LoginError('That code expired. Run `while-desk login` again.');
        } else if (error.reason !== 'authorization_pending') {
          removeFile(pendingPath(client.env));
          throw new LoginError(`Login failed (${error.status}): ${error.reason}`);
        }
      }
    }
    if (reply && typeof reply.api_key === 'string') return saveLogin(client, flow, reply);
    if (nowS() >= deadline) return { state: 'pending', message: 'Still waiting. Run `while-desk login` again to keep waiting.' };
    await sleep(Math.min(interval * 1000, Math.max(0, (deadline - nowS()) * 1000)) || 10);
  }
}

async function saveLogin(client: PlatformClient, flow: PendingLogin, reply: Record<string, unknown>): Promise<PollResult> {
  const name = String(reply.name ?? '');
  const userId = typeof reply.user_id === 'string' ? reply.user_id : null;
  const file = writeCredentials(client.env, { api_key: String(reply.api_key), api_url: flow.api_url, name, user_id: userId ?? undefined, created_at: utcStamp() });
  removeFile(pendingPath(client.env));
  await rememberAccount(client, String(reply.api_key)).catch(() => undefined); // §2.4 step 5: errors ignored
  return { state: 'approved', path: file, name, user_id: userId };
}
