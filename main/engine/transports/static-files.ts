// The built renderer's files for `serve`: GET and HEAD only, nothing outside the folder, every reply with the
// security headers. A request that cannot be read (bad encoding, absolute-form target) gets a 400, never a throw.
import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { decodePath, parseTarget, replyText, securityHeaders } from './http-guard';

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

/** The file a decoded path names inside `root`, or null when it points outside it. */
function resolveInside(root: string, decoded: string): string | null {
  const relative = decoded === '/' ? 'index.html' : decoded.slice(1);
  const file = path.resolve(root, relative);
  return file.startsWith(root + path.sep) ? file : null;
}

export async function serveStatic(staticDir: string, port: number, request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    replyText(response, port, 405, 'only GET and HEAD are served here');
    return;
  }
  const target = parseTarget(request.url);
  const decoded = target && decodePath(target.pathname);
  if (!decoded) {
    replyText(response, port, 400, 'the request target is not a path this server can read');
    return;
  }
  const root = path.resolve(staticDir);
  const file = resolveInside(root, decoded);
  const stat = file ? await fs.promises.stat(file).catch(() => null) : null;
  if (!file || !stat || !stat.isFile()) {
    replyText(response, port, 404, 'not found');
    return;
  }
  response.writeHead(200, {
    ...securityHeaders(port),
    'content-type': CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream',
    'content-length': String(stat.size),
  });
  if (request.method === 'HEAD') {
    response.end();
    return;
  }
  const stream = fs.createReadStream(file);
  stream.on('error', () => response.destroy());
  stream.pipe(response);
}
