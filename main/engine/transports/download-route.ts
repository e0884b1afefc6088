// GET /download/<id>?token=...: a training export the engine wrote for this browser, served once as an attachment
// and then removed. The token is the API's own; the id is only ever looked up (takeDownload), never made a path.
import fs from 'node:fs';
import type http from 'node:http';
import { takeDownload } from '../../training/downloads';
import type { Engine } from '../engine';
import { parseTarget, replyText, securityHeaders } from './http-guard';

export const DOWNLOAD_PREFIX = '/download/';

export function serveDownload(engine: Engine, port: number, tokenOk: (given: string | null) => boolean, request: http.IncomingMessage, response: http.ServerResponse): void {
  if (request.method !== 'GET') return replyText(response, port, 405, 'a download is fetched with GET');
  const target = parseTarget(request.url);
  if (!target || !target.pathname.startsWith(DOWNLOAD_PREFIX)) return replyText(response, port, 400, 'the request target is not a download');
  if (!tokenOk(target.searchParams.get('token'))) return replyText(response, port, 401, 'wrong or missing token');
  const download = takeDownload(engine.ctx, target.pathname.slice(DOWNLOAD_PREFIX.length));
  if (!download) return replyText(response, port, 404, 'no such download (each one is fetched once)');
  const ascii = download.name.replace(/[^\w.-]+/g, '_');
  response.writeHead(200, {
    ...securityHeaders(port),
    'content-type': 'application/x-ndjson; charset=utf-8',
    'content-length': String(download.bytes),
    'content-disposition': `attachment; filename="${ascii}"`,
  });
  const stream = fs.createReadStream(download.file);
  const remove = () => fs.rm(download.file, { force: true }, () => undefined);
  stream.on('error', () => {
    response.destroy();
    remove();
  });
  response.on('close', remove);
  stream.pipe(response);
}
