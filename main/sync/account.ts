// Signup, the account (/me), status and logout (platform-api §2.5).
import type { PlatformClient } from './client';
import { credentialsPath, pendingPath, readCredentials, readPending, removeFile, utcStamp, writeCredentials } from './credentials';
import { PlatformError } from './errors';
import { maskKey } from './mask-key';

export interface Account {
  user_id?: string;
  tier?: string;
  trial?: { expires_at?: string; daily_input_tokens?: number; lift?: string; [field: string]: unknown } | null;
  limits?: Record<string, unknown>;
  usage?: Record<string, unknown>;
}

export function fetchAccount(client: PlatformClient, key?: string): Promise<Account> {
  return client.call<Account>('auth', 'GET', '/me', { key });
}

/** Keeps the tier facts next to the saved key, only for that key and only when something changed (§2.5). */
export async function rememberAccount(client: PlatformClient, key: string): Promise<Account> {
  const account = await fetchAccount(client, key);
  const saved = readCredentials(client.env);
  if (!saved || saved.api_key !== key) return account;
  const facts: Record<string, unknown> = { tier: account.tier };
  if (account.trial?.daily_input_tokens !== undefined) facts.daily_input_tokens = account.trial.daily_input_tokens;
  if (account.trial?.expires_at !== undefined) facts.expires_at = account.trial.expires_at;
  if (Object.entries(facts).some(([field, value]) => value !== undefined && saved[field] !== value)) {
    writeCredentials(client.env, { ...saved, ...Object.fromEntries(Object.entries(facts).filter(([, value]) => value !== undefined)) });
  }
  return account;
}

export class SignupError extends Error {}

export async function signup(client: PlatformClient, email: string, name: string): Promise<{ path: string; user_id: string | null; tier: string | null }> {
  if (!email.includes('@')) throw new SignupError(`"${email}" is not an email address`);
  let reply: Record<string, unknown>;
  try {
    reply = await client.call<Record<string, unknown>>('auth', 'POST', '/signup', { json: { email, name }, noKey: true });
  } catch (error) {
    if (error instanceof PlatformError && error.kind === 'http') {
      const why = error.reason === 'account_exists' ? 'that email already has an account: `while-desk login` signs in' : error.reason;
      throw new SignupError(`Signup failed (${error.status}): ${why}`);
    }
    throw error;
  }
  if (typeof reply?.api_key !== 'string') throw new SignupError(`Signup failed: ${JSON.stringify(reply).slice(0, 200)}`);
  const trial = (reply.trial ?? undefined) as Account['trial'];
  const path = writeCredentials(client.env, {
    api_key: reply.api_key,
    api_url: client.urls.apiUrl,
    name: String(reply.name ?? name),
    user_id: typeof reply.user_id === 'string' ? reply.user_id : undefined,
    email: typeof reply.email === 'string' ? reply.email : email,
    created_at: utcStamp(),
    ...(typeof reply.tier === 'string' ? { tier: reply.tier } : {}),
    ...(trial?.daily_input_tokens !== undefined ? { daily_input_tokens: trial.daily_input_tokens } : {}),
    ...(trial?.expires_at !== undefined ? { expires_at: trial.expires_at } : {}),
  });
  return { path, user_id: typeof reply.user_id === 'string' ? reply.user_id : null, tier: typeof reply.tier === 'string' ? reply.tier : null };
}

export interface AccountStatus {
  api_url: string;
  platform_url: string;
  configured: boolean;
  source: string | null;
  path: string;
  key: string | null;
  name: string | null;
  pending: boolean;
  tier: string | null;
  trial_expires_at: string | null;
  limits: Record<string, unknown> | null;
  usage: Record<string, unknown> | null;
}

/** Local facts plus one /me when a key exists (`online`); with no key nothing is sent. */
export async function accountStatus(client: PlatformClient, online: boolean): Promise<AccountStatus> {
  const resolved = client.resolvedKey();
  const saved = readCredentials(client.env);
  const status: AccountStatus = {
    api_url: client.urls.apiUrl,
    platform_url: client.urls.platformUrl,
    configured: Boolean(resolved),
    source: resolved?.source ?? null,
    path: credentialsPath(client.env),
    key: maskKey(resolved?.key),
    name: resolved?.source === 'file' ? (saved?.name ?? null) : null,
    pending: Boolean(readPending(client.env)),
    tier: resolved?.source === 'file' ? (saved?.tier ?? null) : null,
    trial_expires_at: resolved?.source === 'file' ? (saved?.expires_at ?? null) : null,
    limits: null,
    usage: null,
  };
  if (!resolved || !online) return status;
  try {
    const account = resolved.source === 'file' ? await rememberAccount(client, resolved.key) : await fetchAccount(client, resolved.key);
    status.tier = account.tier ?? null;
    status.trial_expires_at = account.trial?.expires_at ?? null;
    status.limits = account.limits ?? null;
    status.usage = account.usage ?? null;
  } catch (error) {
    status.tier = `unknown (${error instanceof PlatformError ? (error.reason ?? error.message) : String(error)})`;
  }
  return status;
}

/** Local only: deletes credentials.json and pending-login.json; says whether a saved key existed (§2.5). */
export function logout(client: PlatformClient): { removed: boolean } {
  const removed = removeFile(credentialsPath(client.env));
  removeFile(pendingPath(client.env));
  return { removed };
}
