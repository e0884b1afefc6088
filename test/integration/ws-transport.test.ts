import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { MessageChannel } from 'node:worker_threads';
import { RpcClient } from '../../shared/api/rpc';
import { typedClient } from '../../shared/api/client';
import { createEngine, type Engine } from '../../main/engine/engine';
import { serveRpc } from '../../main/engine/rpc-server';
import { startServer, type RunningServer } from '../../main/engine/transports/ws-server';
import { createDeskBridge, type PortLike } from '../../preload/desk-bridge';
import { takeToken } from '../../renderer/src/api/ws-transport';
import { sdkRow } from '../fixtures/sdk-rows';
import { tempDir } from '../helpers/temp';

function openSocket(url: string): Promise<{ client: RpcClient; socket: WebSocket }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    const listeners: Array<(message: unknown) => void> = [];
    socket.on('message', (data) => listeners.forEach((listener) => listener(JSON.parse(String(data)))));
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
    await expect(openSocket(`ws://127.0.0.1:${server.port}/api?token=wrong`)).rejects.toThrow(/401/);
    await expect(openSocket(`ws://127.0.0.1:${server.port}/api`)).rejects.toThrow(/401/);
  });

  it('answers typed calls, forwards events, and returns typed errors', async () => {
    const { client, socket } = await openSocket(`ws://127.0.0.1:${server.port}/api?token=${server.token}`);
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

/** The preload's bridge over a real MessageChannel to the engine, as Electron wires it (host-entry.ts). */
function preloadBridge(engine: Engine, picked: string | null = null) {
  const { port1, port2 } = new MessageChannel();
  serveRpc(engine, {
    send: (message) => port1.postMessage(message),
    onMessage: (listener) => port1.on('message', (data) => listener(data)),
  });
  const asked: string[] = [];
  const bridge = createDeskBridge(async (kind) => {
    asked.push(kind);
    return picked;
  });
  return { bridge, asked, connect: () => bridge.connect(port2 as unknown as PortLike), close: () => (port1.close(), port2.close()) };
}

describe('the preload and the WebSocket transport reject alike', () => {
  let engine: Engine;
  let server: RunningServer;

  beforeAll(async () => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, 'static'));
    engine = createEngine({ dbPath: path.join(dir, 'desk.db') });
    server = await startServer({ engine, staticDir: path.join(dir, 'static') });
  });

  afterAll(async () => {
    await server.close();
    await engine.close();
  });

  it('answers calls made before the port arrived, in order, and forwards events', async () => {
    const { bridge, connect, close } = preloadBridge(engine);
    const early = bridge.desk.call('app.info', {});
    connect();
    await expect(early).resolves.toMatchObject({ name: 'while-desk' });
    const events: unknown[] = [];
    bridge.desk.on('import.progress', (payload) => events.push(payload));
    const { import_id } = (await bridge.desk.call('datasets.importBegin', { name: 'port' })) as { import_id: string };
    await bridge.desk.call('datasets.importChunk', { import_id, text: `${JSON.stringify(sdkRow(0))}\n` });
    await expect(bridge.desk.call('datasets.importEnd', { import_id })).resolves.toMatchObject({ rows_imported: 1 });
    expect(events.length).toBeGreaterThan(0);
    close();
  });

  it('rejects with the same {code, message, where} as the WebSocket, as plain data that crosses contextBridge', async () => {
    const { bridge, connect, close } = preloadBridge(engine);
    connect();
    const { client, socket } = await openSocket(`ws://127.0.0.1:${server.port}/api?token=${server.token}`);
    const calls: Array<[string, unknown]> = [['datasets.rows', { id: '' }], ['no.such.method', {}], ['datasets.get', { id: 'missing' }]];
    for (const [method, input] of calls) {
      const viaPort = await bridge.desk.call(method, input).then(() => null, (error: unknown) => error);
      const viaSocket = await client.call(method, input).then(() => null, (error: unknown) => error);
      expect(viaPort, method).not.toBeInstanceOf(Error);
      expect(viaSocket, method).toBeInstanceOf(Error);
      const shape = (error: unknown) => {
        const { code, message, where } = error as { code: string; message: string; where?: string };
        return { code, message, where };
      };
      expect(shape(viaPort), method).toEqual(shape(viaSocket));
      expect(shape(viaPort).code, method).toMatch(/^(bad_input|unknown_method|not_found)$/);
      expect(structuredClone(viaPort)).toEqual(viaPort);
    }
    socket.close();
    close();
  });

  it('pickFile asks main for a known kind only, and gives back the path or null', async () => {
    const chosen = preloadBridge(engine, '/home/me/tasks.jsonl');
    await expect(chosen.bridge.desk.pickFile('tasks')).resolves.toBe('/home/me/tasks.jsonl');
    const cancelled = preloadBridge(engine, null);
    await expect(cancelled.bridge.desk.pickFile('model')).resolves.toBeNull();
    await expect(chosen.bridge.desk.pickFile('../../etc' as never)).rejects.toMatchObject({ code: 'bad_input' });
    await expect(chosen.bridge.desk.pickFile('toString' as never)).rejects.toMatchObject({ code: 'bad_input' });
    expect(chosen.asked).toEqual(['tasks']);
  });
});

describe('the page takes the token out of its address', () => {
  function fakePage(href: string) {
    const url = new URL(href);
    const stored = new Map<string, string>();
    const replaced: string[] = [];
    const location = { search: url.search, pathname: url.pathname, hash: url.hash } as Location;
    const history = { state: null, replaceState: (_state: unknown, _title: string, next: string) => replaced.push(next) } as unknown as History;
    const storage = { getItem: (key: string) => stored.get(key) ?? null, setItem: (key: string, value: string) => void stored.set(key, value) } as unknown as Storage;
    return { location, history, storage, replaced };
  }

  it('reads the token, removes it from the address (keeping the rest) and finds it again after a reload', () => {
    const page = fakePage('http://127.0.0.1:5000/?token=abc123&x=1#/runs');
    expect(takeToken(page.location, page.history, page.storage)).toBe('abc123');
    expect(page.replaced).toEqual(['/?x=1#/runs']);
    const reloaded = { ...page, location: { search: '?x=1', pathname: '/', hash: '#/runs' } as Location };
    expect(takeToken(reloaded.location, reloaded.history, reloaded.storage)).toBe('abc123');
    expect(page.replaced).toHaveLength(1);
  });

  it('has no token when neither the address nor the tab holds one', () => {
    const page = fakePage('http://127.0.0.1:5000/');
    expect(takeToken(page.location, page.history, page.storage)).toBeNull();
    expect(page.replaced).toEqual([]);
  });
});
