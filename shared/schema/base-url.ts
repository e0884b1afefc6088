// The /v1 base URL of an OpenAI-compatible server, checked and normalised the same way wherever one is given.

/** Validates a base URL: http(s), no credentials, no query; a trailing slash or /chat/completions is dropped. */
export function normalizeBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`"${raw}" is not a URL: give the server's /v1 base, e.g. http://127.0.0.1:8000/v1`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`base URL ${raw} must start with http:// or https://`);
  if (url.username || url.password) throw new Error(`base URL ${url.host} must not carry credentials: pass the key with --api-key-env`);
  if (url.search || url.hash) throw new Error(`base URL ${raw} must not have a query or fragment`);
  return url.href.replace(/\/+$/, '').replace(/\/chat\/completions$/, '');
}
