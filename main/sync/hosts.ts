// Where the While platform lives (platform-api §1.1-1.2), and the one rule for where a While key may go.
export const DEFAULT_API_URL = 'https://api.while.ai';

/** Retired hosts of the same API: a saved `api_url` naming one is read as the default (§2.6). */
export const RETIRED_API_URLS = ['https://api.zeroproofai.com', 'https://mbxp83jd48.execute-api.us-east-1.amazonaws.com', 'https://api.withwhile.com'];

/** Domains a While key may be sent to over https, themselves or any host under them (§1.2, `_env.is_platform_host`). */
const WHILE_DOMAINS = ['while.ai', 'withwhile.com', 'zeroproofai.com'];
const MODAL_PREFIX = 'zeroproofai--zeroproof-serve-';

export type Env = Record<string, string | undefined>;

/** `WHILEAI_<NAME>`, an empty string counting as unset (§1.1). */
export function setting(env: Env, name: string): string | undefined {
  const value = env[`WHILEAI_${name}`];
  return value === undefined || value === '' ? undefined : value;
}

const stripSlash = (url: string) => url.replace(/\/+$/, '');

export interface PlatformUrls {
  /** Auth (`/device/*`, `/signup`, `/me`) and datasets: WHILEAI_API_URL. */
  apiUrl: string;
  /** Tracked agents and runs: WHILEAI_PLATFORM_URL, else the API URL. */
  platformUrl: string;
}

export function platformUrls(env: Env): PlatformUrls {
  const apiUrl = stripSlash(setting(env, 'API_URL') ?? DEFAULT_API_URL);
  return { apiUrl, platformUrl: stripSlash(setting(env, 'PLATFORM_URL') ?? apiUrl) };
}

function parse(url: string): URL | undefined {
  try {
    return new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `https://${url}`);
  } catch {
    return undefined;
  }
}

/**
 * Whether a While key may travel to `url`: an https host that is or sits under a While domain, a While serve host
 * on modal.run, or exactly the host (and port) the person set in WHILEAI_API_URL or WHILEAI_PLATFORM_URL.
 */
export function keyAllowedFor(url: string, env: Env): boolean {
  const target = parse(url);
  if (!target) return false;
  const chosen = [setting(env, 'API_URL'), setting(env, 'PLATFORM_URL')].flatMap((value) => (value ? [parse(value)] : []));
  if (chosen.some((origin) => origin && origin.protocol === target.protocol && origin.host === target.host)) return true;
  if (target.protocol !== 'https:' || target.port !== '') return false;
  const host = target.hostname.toLowerCase();
  if (WHILE_DOMAINS.some((domain) => host === domain || host.endsWith(`.${domain}`))) return true;
  return host.endsWith('.modal.run') && host.startsWith(MODAL_PREFIX);
}

/**
 * For code that sends keys to other endpoints (an OpenAI-compatible agent's `--api-key-env NAME`): whether `key`
 * is a While key that must not go to `url`. A `zp_` key goes only where keyAllowedFor says.
 */
export function isWhileKeyMisdirected(key: string, url: string, env: Env): boolean {
  return key.startsWith('zp_') && !keyAllowedFor(url, env);
}
