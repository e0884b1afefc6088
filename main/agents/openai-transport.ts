// POSTs JSON to an OpenAI-compatible server: a shared cap on requests in flight, per-attempt timeouts,
// and retries with exponential backoff and jitter on 429 (honouring Retry-After), 408, 5xx, resets and timeouts.
import http from 'node:http';
import https from 'node:https';
import { watchAbort } from './abort-watch';
import { Semaphore } from './semaphore';

export interface TransportOptions {
  /** The exact URL posted to; the key is sent there and nowhere else (redirects are refused). */
  url: string;
  apiKey?: string;
  concurrency: number;
  timeoutMs: number;
  maxRetries: number;
  retryBaseMs: number;
  retryMaxMs: number;
  /** Called before each retry (for counters and logs). */
  onRetry?: (info: { attempt: number; delayMs: number; reason: string }) => void;
}

/** A request that failed for good: `status` is the HTTP status when the server answered. */
export class OpenAiHttpError extends Error {
  constructor(message: string, readonly status?: number, readonly retryable = false) {
    super(message);
    this.name = 'OpenAiHttpError';
  }
}

const RETRY_AFTER_MAX_MS = 60_000;

/** Retry-After in seconds (possibly fractional) or an HTTP date, in ms; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header.trim());
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, RETRY_AFTER_MAX_MS);
  const date = Date.parse(header);
  if (Number.isFinite(date)) return Math.min(Math.max(0, date - now), RETRY_AFTER_MAX_MS);
  return undefined;
}

function backoffMs(attempt: number, baseMs: number, maxMs: number): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** attempt);
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    let unwatch = () => {};
    const timer = setTimeout(() => {
      unwatch();
      resolve();
    }, ms);
    if (signal) {
      unwatch = watchAbort(signal, () => {
        clearTimeout(timer);
        reject(signal.reason);
      });
    }
  });
}

function networkReason(error: unknown): string {
  const code = (error as { code?: string }).code;
  const message = (error as Error).message ?? String(error);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}

type Attempt = { ok: true; value: unknown } | { ok: false; error: OpenAiHttpError; delayMs?: number };
interface Answer {
  status: number;
  retryAfter: string | null;
  text: string;
}

export function createTransport(options: TransportOptions) {
  const semaphore = new Semaphore(options.concurrency);
  const url = new URL(options.url);
  const client = url.protocol === 'https:' ? https : http;
  // One keep-alive pool for every rollout of the run; the semaphore bounds it, so it never queues on its own.
  const pool = new client.Agent({ keepAlive: true, maxSockets: Infinity, scheduling: 'lifo' });
  const baseHeaders: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (options.apiKey) baseHeaders.authorization = `Bearer ${options.apiKey}`;

  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const target = { protocol: url.protocol, hostname, port: url.port, path: `${url.pathname}${url.search}`, method: 'POST', agent: pool };

  /** One POST with node:http (redirects are never followed, so the key goes to this URL only); cancel() destroys it. */
  function send(body: string): { answer: Promise<Answer>; cancel: (reason: Error) => void } {
    let request: http.ClientRequest | undefined;
    const answer = new Promise<Answer>((resolve, reject) => {
      request = client.request({ ...target, headers: { ...baseHeaders, 'content-length': Buffer.byteLength(body) } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('aborted', () => reject(Object.assign(new Error('the connection closed mid-answer'), { code: 'ECONNRESET' })));
        response.on('end', () => {
          const retryAfter = response.headers['retry-after'];
          resolve({ status: response.statusCode ?? 0, retryAfter: typeof retryAfter === 'string' ? retryAfter : null, text: Buffer.concat(chunks).toString('utf8') });
        });
      });
      request.on('error', reject);
      request.end(body);
    });
    return { answer, cancel: (reason) => request?.destroy(reason) };
  }

  async function attemptOnce(body: string, signal?: AbortSignal): Promise<Attempt> {
    if (signal?.aborted) throw signal.reason;
    const { answer: pending, cancel } = send(body);
    // A timer and the caller's signal cancel the request (one watcher per signal, nothing left attached afterwards).
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      cancel(new Error(`timed out after ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    const unwatch = signal ? watchAbort(signal, () => cancel(signal.reason instanceof Error ? signal.reason : new Error('aborted'))) : () => {};
    try {
      const answer = await pending;
      if (answer.status >= 200 && answer.status < 300) {
        try {
          return { ok: true, value: JSON.parse(answer.text) };
        } catch {
          return { ok: false, error: new OpenAiHttpError(`${options.url} answered ${answer.status} with a body that is not JSON: ${answer.text.slice(0, 200)}`, answer.status) };
        }
      }
      if (answer.status >= 300 && answer.status < 400) {
        return { ok: false, error: new OpenAiHttpError(`${options.url} answered ${answer.status} (a redirect): redirects are not followed, so give the server's final /v1 base URL`, answer.status) };
      }
      const retryable = answer.status === 429 || answer.status === 408 || answer.status >= 500;
      const error = new OpenAiHttpError(`${options.url} answered ${answer.status}: ${answer.text.slice(0, 300)}`, answer.status, retryable);
      return { ok: false, error, delayMs: retryable ? retryAfterMs(answer.retryAfter) : undefined };
    } catch (error) {
      if (signal?.aborted) throw signal.reason ?? error;
      if (timedOut) return { ok: false, error: new OpenAiHttpError(`${options.url} did not answer within ${options.timeoutMs} ms`, undefined, true) };
      return { ok: false, error: new OpenAiHttpError(`request to ${options.url} failed: ${networkReason(error)}`, undefined, true) };
    } finally {
      clearTimeout(timer);
      unwatch();
    }
  }

  /** Posts `payload` and returns the parsed JSON answer, or throws an OpenAiHttpError once retries are spent. */
  async function post(payload: unknown, signal?: AbortSignal): Promise<unknown> {
    const body = JSON.stringify(payload);
    for (let attempt = 0; ; attempt++) {
      const result = await semaphore.run(() => attemptOnce(body, signal), signal);
      if (result.ok) return result.value;
      if (!result.error.retryable) throw result.error;
      if (attempt >= options.maxRetries) {
        throw new OpenAiHttpError(`${result.error.message} (gave up after ${attempt + 1} attempts)`, result.error.status, true);
      }
      const delayMs = result.delayMs ?? backoffMs(attempt, options.retryBaseMs, options.retryMaxMs);
      options.onRetry?.({ attempt: attempt + 1, delayMs, reason: result.error.message });
      await sleep(delayMs, signal);
    }
  }

  return { post, semaphore, close: () => pool.destroy() };
}
