// Which While key a call uses (platform-api §2.3), first found wins: the explicit one, WHILEAI_DELEGATED_CREDENTIAL,
// WHILEAI_API_KEY, then the saved credentials.json key, then (desktop app) its copy in the OS keychain. (The SDK's auth and tracked clients skip the delegated
// credential; its data client and docs use this order, which the spec recommends for every call.)
import { readCredentials } from './credentials';
import { setting, type Env } from './hosts';
import { keychainWhileKey } from './keychain-key';

export type KeySource = 'explicit' | 'WHILEAI_DELEGATED_CREDENTIAL' | 'WHILEAI_API_KEY' | 'file' | 'keychain';

export interface ResolvedKey {
  key: string;
  source: KeySource;
}

export function resolveKey(env: Env, explicit?: string): ResolvedKey | undefined {
  if (explicit) return { key: explicit, source: 'explicit' };
  const delegated = setting(env, 'DELEGATED_CREDENTIAL');
  if (delegated) return { key: delegated, source: 'WHILEAI_DELEGATED_CREDENTIAL' };
  const fromEnv = setting(env, 'API_KEY');
  if (fromEnv) return { key: fromEnv, source: 'WHILEAI_API_KEY' };
  const saved = readCredentials(env);
  if (saved) return { key: saved.api_key, source: 'file' };
  const copy = keychainWhileKey(); // the desktop app's keychain copy (keychain-key.ts)
  return copy ? { key: copy, source: 'keychain' } : undefined;
}
