// A platform client: the base URLs, the key, timeouts and retries in one object. Every call the app makes to
// the While platform goes through `call` (JSON) or `upload`/`download` (streams), and so through http.ts.
import type { IncomingMessage } from 'node:http';
import type { Writable } from 'node:stream';
import { PlatformError } from './errors';
import { platformUrls, type Env, type PlatformUrls } from './hosts';
import { send, sendStreamed } from './http';
import { resolveKey, type ResolvedKey } from './resolve-key';
import { DEFAULT_RETRY, withRetry, type RetryPolicy } from './retry';

/** Which of the SDK's three clients a call belongs to (§0): its base URL. */
export type Service = 'auth' | 'data' | 'tracked';

export interface ClientOptions {
  env?: Env;
  /** A key given for this client only (wins over every other source). */
  apiKey?: string;
  /** Inactivity timeout per request; §7.3 says 30 s for auth and tracked calls, 120 s for data. */
  timeoutMs?: number;
  retry?: RetryPolicy;
}

export interface CallOptions {
  json?: unknown;
  /** Unauthenticated routes (/device/*, /signup, /catalog). */
  noKey?: boolean;
  /** A key to use instead of the resolved one (the key login just received). */
  key?: string;
  headers?: Record<string, string>;
  /** false: one try only (login polling counts its own failures). */
  retry?: boolean;
}

/** Timeouts and retries can be tightened from the environment (tests, benches); the defaults follow §7.3. */
function envNumber(env: Env, name: string): number | undefined {
  const value = Number(env[name]);
  return env[name] && Number.isFinite(value) && value >= 0 ? value : undefined;
}

export class PlatformClient {
  readonly env: Env;
  readonly urls: PlatformUrls;
  private readonly explicitKey?: string;
  private readonly timeoutMs?: number;
  readonly retry: RetryPolicy;
  /** How long an outbox item that failed for a retryable reason waits before it goes again: 5 s doubling to an hour. */
  readonly outboxBackoff: { baseMs: number; maxMs: number };

  constructor(options: ClientOptions = {}) {
    this.env = options.env ?? process.env;
    this.urls = platformUrls(this.env);
    this.explicitKey = options.apiKey;
    this.timeoutMs = options.timeoutMs ?? envNumber(this.env, 'WHILE_DESK_SYNC_TIMEOUT_MS');
    const tries = envNumber(this.env, 'WHILE_DESK_SYNC_TRIES');
    const baseMs = envNumber(this.env, 'WHILE_DESK_SYNC_BACKOFF_MS');
    this.retry = options.retry ?? { ...DEFAULT_RETRY, ...(tries ? { tries } : {}), ...(baseMs !== undefined ? { baseMs, maxMs: Math.max(baseMs * 16, 1) } : {}) };
    const outboxMs = envNumber(this.env, 'WHILE_DESK_OUTBOX_BACKOFF_MS');
    this.outboxBackoff = outboxMs !== undefined ? { baseMs: outboxMs, maxMs: Math.max(outboxMs * 64, 1) } : { baseMs: 5000, maxMs: 3_600_000 };
  }

  resolvedKey(): ResolvedKey | undefined {
    return resolveKey(this.env, this.explicitKey);
  }

  /** The key for a call, or the SDK's "no key" error, before anything is sent (§2.3). */
  requireKey(): string {
    const found = this.resolvedKey();
    if (!found) throw new PlatformError('no_key', 401, 'No While key: run `while-desk login` (or set WHILEAI_API_KEY).');
    return found.key;
  }

  baseFor(service: Service): string {
    return service === 'tracked' ? this.urls.platformUrl : this.urls.apiUrl;
  }

  timeoutFor(service: Service): number {
    return this.timeoutMs ?? (service === 'data' ? 120_000 : 30_000);
  }

  async call<T = unknown>(service: Service, method: string, path: string, options: CallOptions = {}): Promise<T> {
    const apiKey = options.noKey ? undefined : (options.key ?? this.requireKey());
    const request = { method, url: this.baseFor(service) + path, apiKey, json: options.json, headers: options.headers, timeoutMs: this.timeoutFor(service), env: this.env };
    const once = async () => (await send(request)).json as T;
    return options.retry === false ? once() : withRetry(once, this.retry);
  }

  /** PUT `bytes` bytes to a presigned URL: no key (§2.2), the length stated; the body is re-opened on each try. */
  async upload(url: string, writeTo: (sink: Writable) => Promise<void>, contentType: string, bytes: number): Promise<void> {
    await withRetry(() => send({ method: 'PUT', url, body: { writeTo, bytes, contentType }, timeoutMs: this.timeoutFor('data'), env: this.env }), this.retry);
  }

  /** GET a presigned URL, streaming the body to `consume` (one try per call of consume; retried whole). */
  download<T>(url: string, consume: (body: IncomingMessage) => Promise<T>): Promise<T> {
    return withRetry(() => sendStreamed({ method: 'GET', url, timeoutMs: this.timeoutFor('data'), env: this.env }, consume), this.retry);
  }
}
