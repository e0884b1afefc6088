// Shared by the sync tests: an engine on a temp database, a dataset of SDK rows, env pointing at the fake.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEngine, type Engine } from '../../main/engine/engine';
import { sdkRow } from '../fixtures/sdk-rows';
import { writeCredentials } from '../../main/sync/credentials';
import type { FakeWhilePlatform } from '../fixtures/fake-while-platform.mjs';

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Points the platform client at the fake, with tight timeouts and retries; no key yet. */
export function useFake(fake: FakeWhilePlatform, home: string): void {
  Object.assign(process.env, {
    WHILEAI_HOME: home,
    WHILEAI_API_URL: fake.url,
    WHILEAI_PLATFORM_URL: fake.url,
    WHILE_DESK_SYNC_TIMEOUT_MS: '800',
    WHILE_DESK_SYNC_BACKOFF_MS: '5',
    WHILE_DESK_SYNC_TRIES: '3',
  });
  delete process.env.WHILEAI_API_KEY;
  delete process.env.WHILEAI_DELEGATED_CREDENTIAL;
}

/** Signs in as the SDK would leave it: a key in credentials.json. */
export function signIn(fake: FakeWhilePlatform, home: string, userId = 'user_1'): string {
  const key = fake.addKey(userId);
  writeCredentials({ WHILEAI_HOME: home }, { api_key: key, api_url: fake.url, name: 'test', user_id: userId, created_at: '2026-01-01T00:00:00Z' });
  return key;
}

export function writeRows(file: string, count: number, extra: (i: number) => Record<string, unknown> = () => ({})): string {
  fs.writeFileSync(file, Array.from({ length: count }, (_, i) => JSON.stringify(sdkRow(i, extra(i)))).join('\n') + '\n');
  return file;
}

export async function engineWithRows(dir: string, count: number, extra?: (i: number) => Record<string, unknown>): Promise<{ engine: Engine; datasetId: string }> {
  const engine = createEngine({ dbPath: path.join(dir, 'desk.sqlite') });
  const imported = await engine.call('datasets.importFile', { path: writeRows(path.join(dir, 'rows.jsonl'), count, extra), name: 'rows' });
  return { engine, datasetId: imported.dataset_id! };
}
