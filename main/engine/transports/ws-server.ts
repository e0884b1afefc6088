// `while-desk serve`: the renderer's static files and the typed API over a WebSocket, on 127.0.0.1 only.
// A random token in the printed URL guards the API; a connection without it is refused, as is one from another
// site's page (Origin) or one addressed to another host name (DNS rebinding). Nothing a client sends, on any
// socket, can throw out of a handler: every socket has an error handler and the server goes on serving.
import http from 'node:http';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { Engine } from '../engine';
import { handshakeProblem, hostAllowed, originAllowed, parseTarget, refuseUpgrade, replyText } from './http-guard';
import { DOWNLOAD_PREFIX, serveDownload } from './download-route';
import { serveStatic } from './static-files';
import { attachSocket } from './ws-connection';

/**
 * The largest message a client may send; a bigger one closes that socket (1009). Import chunks are 1 MiB, but
 * runs.start may carry a whole task file (tasks_text, up to 64 MiB) plus its JSON escaping.
 */
export const MAX_FRAME_BYTES = 80 * 1024 * 1024;

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

function ignoreSocketError(): void {
  // A client that resets or sends garbage only loses its own connection.
}

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  let port = 0;
  const server = http.createServer({ requestTimeout: 30_000, headersTimeout: 10_000 }, (request, response) => {
    request.on('error', ignoreSocketError);
    response.on('error', ignoreSocketError);
    if (!hostAllowed(request, port)) {
      replyText(response, port, 421, 'this server answers only to 127.0.0.1 or localhost on its own port');
      return;
    }
    if (request.url?.startsWith(DOWNLOAD_PREFIX)) {
      serveDownload(options.engine, port, (given) => tokenMatches(given, token), request, response);
      return;
    }
    serveStatic(options.staticDir, port, request, response).catch(() => replyText(response, port, 500, 'internal error'));
  });
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });

  server.on('connection', (socket) => socket.on('error', ignoreSocketError));
  // Malformed HTTP (bad request line, oversized headers): a 400 on the socket, and that socket only is closed.
  server.on('clientError', (_error, socket: Duplex) => refuseUpgrade(socket, port, 400, 'malformed request'));
  server.on('upgrade', (request: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', ignoreSocketError);
    try {
      const target = parseTarget(request.url);
      if (!hostAllowed(request, port)) return refuseUpgrade(socket, port, 421, 'wrong Host');
      if (!originAllowed(request, port)) return refuseUpgrade(socket, port, 403, 'the API accepts only the page served here');
      if (!target || target.pathname !== '/api') return refuseUpgrade(socket, port, 400, 'the API is at /api');
      if (!tokenMatches(target.searchParams.get('token'), token)) return refuseUpgrade(socket, port, 401, 'wrong or missing token');
      const problem = handshakeProblem(request);
      if (problem) return refuseUpgrade(socket, port, 400, problem);
      // Whatever else `ws` finds wrong in the handshake (e.g. a malformed extension header) it answers with a 400.
      sockets.handleUpgrade(request, socket, head, (ws) => attachSocket(options.engine, ws));
    } catch {
      socket.destroy();
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (error) => process.stderr.write(`while-desk serve: ${error.message}\n`));
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    close: async () => {
      for (const client of sockets.clients) client.terminate();
      sockets.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
