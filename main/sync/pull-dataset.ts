// Pull (platform-api §3.6 `pull`): a download grant for the account's own dataset (the public catalog when the
// own route says 404), every part fetched without a key and streamed into a local import: the same import
// code as a file, so a bad line is reported with its number and nothing half-done is kept.
import { StringDecoder } from 'node:string_decoder';
import type { ImportResult } from '../../shared/api/datasets';
import type { Db } from '../db/connection';
import { ImportSession } from '../datasets/import-session';
import type { PlatformClient } from './client';
import { PlatformError } from './errors';

interface Grant {
  downloadUrl?: string;
  parts?: string[];
}

async function grantFor(client: PlatformClient, remoteId: string): Promise<Grant> {
  const path = `/datasets/${encodeURIComponent(remoteId)}/download`;
  try {
    return await client.call<Grant>('data', 'GET', path);
  } catch (error) {
    if (!(error instanceof PlatformError) || error.status !== 404) throw error;
    return client.call<Grant>('data', 'GET', `/catalog/${encodeURIComponent(remoteId)}/download`, { noKey: true });
  }
}

async function remoteName(client: PlatformClient, remoteId: string): Promise<string> {
  try {
    const entry = await client.call<{ name?: unknown }>('data', 'GET', `/datasets/${encodeURIComponent(remoteId)}`);
    return typeof entry?.name === 'string' && entry.name ? entry.name : remoteId;
  } catch {
    return remoteId; // a catalog set, or a platform without the route: the id names it
  }
}

export async function pullDataset(db: Db, client: PlatformClient, remoteId: string, name?: string): Promise<ImportResult & { parts: number }> {
  const grant = await grantFor(client, remoteId);
  const parts = grant.parts?.length ? grant.parts : grant.downloadUrl ? [grant.downloadUrl] : [];
  if (parts.length === 0) throw new PlatformError('http', 404, `GET /datasets/${remoteId}/download: the grant lists no parts`);
  const session = new ImportSession(db, { name: name ?? (await remoteName(client, remoteId)), skipInvalid: false, source: `while:${remoteId}` });
  try {
    for (const url of parts) {
      // Parts are whole JSONL objects that may lack a final newline: each is ended by one.
      await client.download(url, async (body) => {
        const decoder = new StringDecoder('utf8');
        for await (const chunk of body as AsyncIterable<Buffer>) await session.write(decoder.write(chunk));
        await session.write(decoder.end() + '\n');
      });
    }
  } catch (error) {
    await session.abort();
    throw error;
  }
  return { ...(await session.end()), parts: parts.length };
}
