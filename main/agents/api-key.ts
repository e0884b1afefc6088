// Where an OpenAI-compatible agent's key comes from: `--api-key-env NAME` (default OPENAI_API_KEY), else the OS keychain hook.
import { RUN_DEFAULTS } from '../../shared/schema/run-settings';
import { isWhileKeyMisdirected } from '../sync/hosts';

export const DEFAULT_API_KEY_ENV = RUN_DEFAULTS.api_key_env;

/**
 * The OS keychain hook. The desktop app (main/app, the only code that may import electron) registers a lookup
 * that reads its safeStorage-encrypted secrets; the CLI registers none, so only the environment is used there.
 */
export type KeychainLookup = (account: { baseUrl: string; envName: string }) => Promise<string | undefined>;

let keychainLookup: KeychainLookup | null = null;

export function setKeychainLookup(lookup: KeychainLookup | null): void {
  keychainLookup = lookup;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export interface ResolveApiKeyOptions {
  /** The variable named by --api-key-env. */
  envName?: string;
  baseUrl: string;
  env?: Record<string, string | undefined>;
}

/** The variables the While SDK reads its own key from: never an OpenAI-compatible endpoint's key. */
const WHILE_KEY_VARIABLES = new Set(['WHILEAI_API_KEY', 'WHILEAI_DELEGATED_CREDENTIAL']);

/** A While key goes only to the While hosts (main/sync/hosts.ts): refused here, before any request is made. */
function refuseWhileKey(key: string, envName: string, options: ResolveApiKeyOptions): string {
  const env = options.env ?? process.env;
  if (isWhileKeyMisdirected(key, options.baseUrl, env) || (WHILE_KEY_VARIABLES.has(envName) && isWhileKeyMisdirected(`zp_${key}`, options.baseUrl, env))) {
    let host = options.baseUrl;
    try {
      host = new URL(options.baseUrl).host;
    } catch {
      // shown as given
    }
    throw new Error(`the key in ${envName} is a While key, and a While key is sent only to the While platform, never to ${host}; pass the endpoint's own key with --api-key-env NAME`);
  }
  return key;
}

/** The key to send to baseUrl, or undefined when there is none (a local server usually needs none). */
export async function resolveApiKey(options: ResolveApiKeyOptions): Promise<string | undefined> {
  const envName = options.envName ?? DEFAULT_API_KEY_ENV;
  if (!ENV_NAME.test(envName)) throw new Error(`--api-key-env must name an environment variable (got "${envName}")`);
  const fromEnv = (options.env ?? process.env)[envName]?.trim();
  if (fromEnv) return refuseWhileKey(fromEnv, envName, options);
  if (keychainLookup) {
    const fromKeychain = (await keychainLookup({ baseUrl: options.baseUrl, envName }))?.trim();
    if (fromKeychain) return refuseWhileKey(fromKeychain, envName, options);
  }
  return undefined;
}

/** True for servers on this machine (plain http to localhost), which need no key (sdk-semantics §4.3). */
export function isLocalUrl(baseUrl: string): boolean {
  try {
    const host = new URL(baseUrl).hostname;
    return host === 'localhost' || host === '127.0.0.1' || host === '[::1]' || host === '::1';
  } catch {
    return false;
  }
}
