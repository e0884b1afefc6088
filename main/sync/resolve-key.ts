// Which While key a call uses (platform-api §2.3), first found wins: the explicit one, WHILEAI_DELEGATED_CREDENTIAL,
// WHILEAI_API_KEY, then the saved credentials.json key. (The SDK's auth and tracked clients skip the delegated
// credential; its data client and docs use this order, which the spec recommends for every call.)
import { readCredentials } from './credentials';
import { setting, type Env } from './hosts';

export type KeySource = 'explicit' | 'WHILEAI_DELEGATED_CREDENTIAL' | 'WHILEAI_API_KEY' | 'file';

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
  return saved ? { key: saved.api_key, source: 'file' } : undefined;
}
