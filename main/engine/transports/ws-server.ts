// `while-desk serve`: the renderer's static files and the typed API over a WebSocket, on 127.0.0.1 only.
// A random token in the printed URL guards the API; a connection without it is refused.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { RpcMessage } from '../../../shared/api/rpc';
import { contentSecurityPolicy } from '../../../shared/csp';
import type { Engine } from '../engine';
import { serveRpc } from '../rpc-server';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

export interface ServeOptions {
  engine: Engine;
  /** Folder of the built renderer (index.html and assets). */
  staticDir: string;
  port?: number;
  token?: string;
}

export interface RunningServer {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

function tokenMatches(given: string | null, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function serveStatic(staticDir: string, request: http.IncomingMessage, response: http.ServerResponse): void {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  const relative = decodeURIComponent(url.pathname) === '/' ? 'index.html' : decodeURIComponent(url.pathname).slice(1);
  const file = path.resolve(staticDir, relative);
  if (!file.startsWith(path.resolve(staticDir) + path.sep) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
    response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    return;
  }
  response.writeHead(200, {
    'content-type': CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream',
    'x-content-type-options': 'nosniff',
    // The same policy as the desktop window, as a header so frame-ancestors applies too.
    'content-security-policy': contentSecurityPolicy("'self' ws://127.0.0.1:*"),
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  });
  fs.createReadStream(file).pipe(response);
}

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  const server = http.createServer((request, response) => serveStatic(options.staticDir, request, response));
  const sockets = new WebSocketServer({ noServer: true, maxPayload: 32 * 1024 * 1024 });

  server.on('upgrade', (request, socket, head) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/api' || !tokenMatches(url.searchParams.get('token'), token)) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => attach(ws));
  });

  function attach(ws: WebSocket): void {
    const listeners: Array<(message: RpcMessage) => void> = [];
    ws.on('message', (data) => {
      let message: RpcMessage;
      try {
        message = JSON.parse(String(data)) as RpcMessage;
      } catch {
        return;
      }
      listeners.forEach((listener) => listener(message));
    });
    const stop = serveRpc(options.engine, {
      send: (message) => {
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
      },
      onMessage: (listener) => listeners.push(listener),
    });
    ws.on('close', stop);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    close: async () => {
      for (const client of sockets.clients) client.terminate();
      sockets.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
