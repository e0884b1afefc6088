// What every request to `serve` must pass before anything reads it: a loopback Host (no DNS rebinding), an
// origin-form target that parses, and, for the API, the page's own Origin. Every reply carries the security headers.
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { contentSecurityPolicy } from '../../../shared/csp';

/** The hosts a page served by us can have: the loopback address we listen on, by number or by name. */
export function allowedHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
}

/** The `Host` header names us (and nothing else): a page on evil.example that resolves to 127.0.0.1 fails here. */
export function hostAllowed(request: http.IncomingMessage, port: number): boolean {
  const host = request.headers.host;
  return typeof host === 'string' && allowedHosts(port).has(host.toLowerCase());
}

/**
 * A browser always sends `Origin` on a WebSocket upgrade: it must be our own page. A client that sends none
 * (the CLI, a script holding the token) is not a web page another site could have opened.
 */
export function originAllowed(request: http.IncomingMessage, port: number): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  return [...allowedHosts(port)].some((host) => origin.toLowerCase() === `http://${host}`);
}

/** The path and query of an origin-form target (`/x?y`), or null for absolute-form, `*`, or anything unparseable. */
export function parseTarget(raw: string | undefined): { pathname: string; searchParams: URLSearchParams } | null {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//')) return null;
  try {
    const url = new URL(raw, 'http://127.0.0.1');
    return { pathname: url.pathname, searchParams: url.searchParams };
  } catch {
    return null;
  }
}

/** A percent-decoded path, or null when the encoding is malformed or it hides a NUL or a backslash. */
export function decodePath(pathname: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  return /[\0\\]/.test(decoded) ? null : decoded;
}

/**
 * Why a request is not a WebSocket handshake we take (RFC 6455 §4.2.1), or null. `ws` checks the same, but
 * answering here lets the refusal carry the security headers like every other reply.
 */
export function handshakeProblem(request: http.IncomingMessage): string | null {
  if (request.method !== 'GET') return 'a WebSocket handshake is a GET';
  if (request.headers.upgrade?.toLowerCase() !== 'websocket') return 'only an upgrade to websocket is served';
  const key = request.headers['sec-websocket-key'];
  if (typeof key !== 'string' || !/^[+/0-9A-Za-z]{22}==$/.test(key)) return 'a missing or malformed Sec-WebSocket-Key';
  const version = request.headers['sec-websocket-version'];
  if (version !== '13' && version !== '8') return 'Sec-WebSocket-Version must be 13';
  const protocols = request.headers['sec-websocket-protocol'];
  if (protocols !== undefined && !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+(\s*,\s*[!#$%&'*+.^_`|~0-9A-Za-z-]+)*$/.test(protocols)) {
    return 'a malformed Sec-WebSocket-Protocol';
  }
  return null;
}

export function securityHeaders(port: number): Record<string, string> {
  return {
    // The same policy as the desktop window, as a header so frame-ancestors applies too; the API socket is ours only.
    'content-security-policy': contentSecurityPolicy(`'self' ws://127.0.0.1:${port} ws://localhost:${port}`),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
    // No Cross-Origin-Opener-Policy: 'same-origin' made Chromium swap the tab's process on every open of the app
    // (60-150 ms before the page's first script here). What it guards, a cross-origin page holding a reference to
    // this window, gains nothing: the API answers only with the token the page was opened with, framing is refused
    // (frame-ancestors, X-Frame-Options), and the app's one link out opens with rel=noreferrer (so with no opener).
    'cross-origin-resource-policy': 'same-origin',
    'x-frame-options': 'DENY',
  };
}

/** A short plain-text reply with the security headers; never throws (the client may already be gone). */
export function replyText(response: http.ServerResponse, port: number, status: number, text: string): void {
  try {
    if (response.headersSent) {
      response.destroy();
      return;
    }
    response.writeHead(status, { ...securityHeaders(port), 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
    response.end(`${text}\n`);
  } catch {
    response.destroy();
  }
}

const REASONS: Record<number, string> = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 421: 'Misdirected Request' };

/** Refuses an upgrade on its raw socket: a status line, the security headers, then the socket is closed. */
export function refuseUpgrade(socket: Duplex, port: number, status: number, text: string): void {
  try {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const headers = { ...securityHeaders(port), 'content-type': 'text/plain; charset=utf-8', 'content-length': String(Buffer.byteLength(text)), connection: 'close' };
    const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
    socket.end(`HTTP/1.1 ${status} ${REASONS[status] ?? 'Error'}\r\n${head}\r\n${text}`);
  } catch {
    socket.destroy();
  }
}
