import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { RpcClient, type RpcMessage } from '../../shared/api/rpc';
import { typedClient } from '../../shared/api/client';
import { createEngine, type Engine } from '../../main/engine/engine';
import { startServer, type RunningServer } from '../../main/engine/transports/ws-server';
import { sdkRow } from '../fixtures/sdk-rows';
import { tempDir } from '../helpers/temp';

function connect(url: string): Promise<{ client: RpcClient; socket: WebSocket }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    const listeners: Array<(message: RpcMessage) => void> = [];
    socket.on('message', (data) => listeners.forEach((listener) => listener(JSON.parse(String(data)) as RpcMessage)));
    socket.once('open', () => resolve({ socket, client: new RpcClient({ send: (m) => socket.send(JSON.stringify(m)), onMessage: (l) => listeners.push(l) }) }));
    socket.once('error', reject);
    socket.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
  });
}

describe('while-desk serve transport', () => {
  let engine: Engine;
  let server: RunningServer;
  let staticDir: string;

  beforeAll(async () => {
    const dir = tempDir();
    staticDir = path.join(dir, 'static');
    fs.mkdirSync(staticDir);
    fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>While Desk</title>');
    engine = createEngine({ dbPath: path.join(dir, 'desk.db') });
    server = await startServer({ engine, staticDir });
  });

  afterAll(async () => {
    await server.close();
    await engine.close();
  });

  it('binds 127.0.0.1 and prints a URL with a random token', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{20,}$/);
  });

  it('serves the app page and refuses paths outside its folder', async () => {
    const page = await fetch(`http://127.0.0.1:${server.port}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('While Desk');
    const escape = await fetch(`http://127.0.0.1:${server.port}/..%2f..%2fetc%2fpasswd`);
    expect(escape.status).toBe(404);
  });

  it('refuses an API connection with a wrong or missing token', async () => {
    await expect(connect(`ws://127.0.0.1:${server.port}/api?token=wrong`)).rejects.toThrow(/401/);
    await expect(connect(`ws://127.0.0.1:${server.port}/api`)).rejects.toThrow(/401/);
  });

  it('answers typed calls, forwards events, and returns typed errors', async () => {
    const { client, socket } = await connect(`ws://127.0.0.1:${server.port}/api?token=${server.token}`);
    const desk = typedClient(client);
    const info = await desk.call('app.info', {});
    expect(info.name).toBe('while-desk');

    const events: unknown[] = [];
    desk.on('import.progress', (payload) => events.push(payload));
    const { import_id } = await desk.call('datasets.importBegin', { name: 'ws' });
    await desk.call('datasets.importChunk', { import_id, text: `${JSON.stringify(sdkRow(0))}\n${JSON.stringify(sdkRow(1))}\n` });
    const result = await desk.call('datasets.importEnd', { import_id });
    expect(result.rows_imported).toBe(2);
    expect(events.length).toBeGreaterThan(0);

    await expect(client.call('datasets.rows', { id: '' })).rejects.toMatchObject({ code: 'bad_input' });
    await expect(client.call('no.such.method', {})).rejects.toMatchObject({ code: 'unknown_method' });
    socket.close();
  });
});
