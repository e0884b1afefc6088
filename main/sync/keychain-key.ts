// The While key's copy in the OS keychain (the desktop app's `ctx.secrets`; the CLI and `serve` have none). The
// SDK's credentials.json stays the key's home (shared with `wai`); the keychain keeps a copy, read as the last
// source when that file is missing (platform-api §2.3 order, then this).
//
// Its name has a dot, so it is no environment-variable name: `--api-key-env NAME` (and the keychain lookup behind
// it, main/agents/api-key.ts) and the `secrets.*` API only take such names, so no agent can be handed this key.
import type { SecretStore } from '../engine/secret-store';
import { readCredentials } from './credentials';
import type { Env } from './hosts';

export const WHILE_KEY_SECRET = 'whileai.api-key';

/** The keychain's copy, loaded when the engine opens (the keychain is asynchronous, the key resolution is not). */
let keychainCopy: string | undefined;

export function keychainWhileKey(): string | undefined {
  return keychainCopy;
}

/** Engine open: the saved key copied into the keychain, or, when no file holds one, the copy loaded from it. */
export async function syncKeychainKey(secrets: SecretStore | undefined, env: Env): Promise<void> {
  if (!secrets) return;
  const saved = readCredentials(env)?.api_key;
  const stored = await secrets.get(WHILE_KEY_SECRET);
  if (saved) {
    keychainCopy = saved;
    if (stored !== saved) await secrets.set(WHILE_KEY_SECRET, saved);
  } else keychainCopy = stored || undefined;
}

/** After a sign-in: the new key kept in the keychain too. */
export async function keepWhileKey(secrets: SecretStore | undefined, key: string): Promise<void> {
  keychainCopy = secrets ? key : keychainCopy;
  await secrets?.set(WHILE_KEY_SECRET, key);
}

/** Logout: the keychain's copy goes with the file. */
export async function forgetWhileKey(secrets: SecretStore | undefined): Promise<void> {
  keychainCopy = undefined;
  await secrets?.delete(WHILE_KEY_SECRET);
}
