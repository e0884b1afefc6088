// Files a browser downloads from `serve`: written by the engine into a private temporary folder, named by a random
// id the API hands back, fetched once (GET /download/<id>?token=...) and removed. A request names only the id, never
// a path, so nothing outside these files can be served.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EngineContext } from '../engine/context';

export interface Download {
  file: string;
  name: string;
  bytes: number;
}

const byEngine = new WeakMap<EngineContext, { dir: string; files: Map<string, Download> }>();

/** How long an unfetched download is kept. */
const KEEP_MS = 30 * 60 * 1000;

export const DOWNLOAD_ID = /^[A-Za-z0-9_-]{22,64}$/;

function registry(ctx: EngineContext): { dir: string; files: Map<string, Download> } {
  let reg = byEngine.get(ctx);
  if (!reg) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'while-desk-downloads-'));
    fs.chmodSync(dir, 0o700);
    reg = { dir, files: new Map() };
    byEngine.set(ctx, reg);
    ctx.onClose(() => fs.rmSync(dir, { recursive: true, force: true }));
  }
  return reg;
}

/** A new download's id and the file to write it to (not yet served until `publish`). */
export function reserveDownload(ctx: EngineContext): { id: string; file: string } {
  const reg = registry(ctx);
  const id = randomBytes(24).toString('base64url');
  return { id, file: path.join(reg.dir, `${id}.jsonl`) };
}

export function publishDownload(ctx: EngineContext, id: string, download: Download): void {
  const reg = registry(ctx);
  reg.files.set(id, download);
  setTimeout(() => {
    if (reg.files.delete(id)) fs.rmSync(download.file, { force: true });
  }, KEEP_MS).unref();
}

/** The download with this id, taken out of the registry (it is served once); undefined for any other id. */
export function takeDownload(ctx: EngineContext, id: string): Download | undefined {
  if (!DOWNLOAD_ID.test(id)) return undefined;
  const reg = byEngine.get(ctx);
  const found = reg?.files.get(id);
  if (found) reg?.files.delete(id);
  return found;
}
