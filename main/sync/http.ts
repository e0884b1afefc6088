// The one HTTP client that talks to the platform. It alone sets X-Api-Key, and refuses to send a key to any host
// but the While hosts (hosts.ts keyAllowedFor). Bodies may be streams (uploads); replies may be streamed (pulls).
// Nothing here logs: a key never reaches a log line, and error texts are masked (errors.ts).
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { Writable } from 'node:stream';
import { PlatformError } from './errors';
import { keyAllowedFor, type Env } from './hosts';

export interface HttpRequest {
  method: string;
  url: string;
  /** The While key, sent as X-Api-Key. Presigned storage URLs get none (§2.2). */
  apiKey?: string;
  json?: unknown;
  /**
   * A body to stream (`writeTo` is called again on each try) and its exact length: every body states its
   * Content-Length, since storage that answers as S3 does refuses a chunked one (501) or one of no length (411).
   */
  body?: { writeTo: (sink: Writable) => Promise<void>; bytes: number; contentType: string };
  headers?: Record<string, string>;
  /** No byte in either direction for this long ends the request as a timeout. */
  timeoutMs: number;
  env: Env;
}

export interface HttpReply {
  status: number;
  text: string;
  json: unknown;
}

const MAX_REPLY_BYTES = 32 << 20;

function label(request: HttpRequest): string {
  const url = new URL(request.url);
  return `${request.method} ${url.origin}${url.pathname}`;
}

function open(request: HttpRequest): Promise<IncomingMessage> {
  const url = new URL(request.url);
  const headers: Record<string, string | number> = { 'user-agent': 'while-desk', ...request.headers };
  for (const name of Object.keys(headers)) {
    if (/^(x-api-key|authorization)$/i.test(name)) throw new PlatformError('refused', 0, `${label(request)}: credentials go only through apiKey`);
  }
  if (request.apiKey !== undefined) {
    if (!keyAllowedFor(request.url, request.env)) {
      throw new PlatformError('refused', 0, `${label(request)}: refused to send a While key to ${url.host}, which is not a While host (set WHILEAI_API_URL or WHILEAI_PLATFORM_URL to use another)`);
    }
    headers['x-api-key'] = request.apiKey;
  }
  let payload: Buffer | undefined;
  if (request.json !== undefined) {
    payload = Buffer.from(JSON.stringify(request.json));
    headers['content-type'] = 'application/json';
    headers['content-length'] = payload.length;
  } else if (request.body) {
    headers['content-type'] = request.body.contentType;
    headers['content-length'] = request.body.bytes;
  }
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = transport.request(url, { method: request.method, headers });
    let settled = false;
    const failWith = (error: PlatformError) => {
      if (settled) return;
      settled = true;
      req.destroy();
      reject(error);
    };
    req.setTimeout(request.timeoutMs, () => failWith(new PlatformError('timeout', 0, `${label(request)}: no answer from ${url.origin} within ${Math.round(request.timeoutMs / 1000)} s`)));
    req.on('error', (error: NodeJS.ErrnoException) => failWith(new PlatformError('network', 0, `${label(request)}: could not reach ${url.origin} (${error.code ?? error.message})`)));
    req.on('response', (res) => {
      settled = true;
      res.setTimeout(request.timeoutMs, () => res.destroy(new Error('timeout')));
      resolve(res);
    });
    if (request.body) {
      request.body.writeTo(req).catch((error: Error) => failWith(new PlatformError('network', 0, `${label(request)}: the upload stopped (${error.message})`)));
    } else req.end(payload);
  });
}

/** One element's text in an S3 error document (`<Code>NotImplemented</Code>`), or undefined. */
function xmlElement(text: string, name: string): string | undefined {
  return new RegExp(`<${name}>([^<]{0,400})</${name}>`).exec(text)?.[1];
}

/**
 * The body's `error` field, else, for storage's XML error document, its code, message and the header it names
 * (`NotImplemented: A header you provided ... (header Transfer-Encoding)`), else its first 400 characters (§7.1).
 */
export function reasonOf(reply: HttpReply): string {
  const error = (reply.json as { error?: unknown } | undefined)?.error;
  if (typeof error === 'string') return error;
  if (error !== undefined) return JSON.stringify(error).slice(0, 400);
  const code = reply.text.includes('<Error>') ? xmlElement(reply.text, 'Code') : undefined;
  if (code) {
    const message = xmlElement(reply.text, 'Message');
    const header = xmlElement(reply.text, 'Header') ?? xmlElement(reply.text, 'ArgumentName');
    return `${code}${message ? `: ${message}` : ''}${header ? ` (header ${header})` : ''}`;
  }
  return reply.text.slice(0, 400) || `HTTP ${reply.status}`;
}

async function readAll(res: IncomingMessage, request: HttpRequest): Promise<HttpReply> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_REPLY_BYTES) throw new Error(`reply over ${MAX_REPLY_BYTES} bytes`);
      chunks.push(chunk);
    }
  } catch (error) {
    throw new PlatformError('network', 0, `${label(request)}: the answer was cut off (${(error as Error).message})`);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.statusCode ?? 0, text, json };
}

/** Sends a request; a non-2xx answer is thrown as a PlatformError carrying the status and the platform's reason. */
export async function send(request: HttpRequest): Promise<HttpReply> {
  const reply = await readAll(await open(request), request);
  if (reply.status < 200 || reply.status >= 300) {
    const reason = reasonOf(reply);
    throw new PlatformError('http', reply.status, `${label(request)} -> ${reply.status}: ${reason}`, reason);
  }
  return reply;
}

/** Sends a request and hands a 2xx answer's body to `consume` as a stream (downloads). */
export async function sendStreamed<T>(request: HttpRequest, consume: (body: IncomingMessage) => Promise<T>): Promise<T> {
  const res = await open(request);
  if ((res.statusCode ?? 0) < 200 || (res.statusCode ?? 0) >= 300) {
    const reply = await readAll(res, request);
    const reason = reasonOf(reply);
    throw new PlatformError('http', reply.status, `${label(request)} -> ${reply.status}: ${reason}`, reason);
  }
  // A failure while consuming is not retried here: what was consumed may already be kept.
  return consume(res);
}
