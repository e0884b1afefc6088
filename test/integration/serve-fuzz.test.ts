// A live `serve` under hostile requests: raw HTTP, bad upgrades, hand-made frames and wrong-shaped calls.
// After each one the server must still answer `app.info`, both on a connection opened before and on a new one.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../main/engine/engine';
import { MAX_FRAME_BYTES, startServer, type RunningServer } from '../../main/engine/transports/ws-server';
import { tempDir } from '../helpers/temp';
import { closeCodeOf, connectClient, exchange, frame, handshake, headersOf, request, statusOf, within, type Client } from './serve-fuzz-helpers';

let engine: Engine;
let server: RunningServer;
let probe: Client;
let port: number;
let apiUrl: string;

beforeAll(async () => {
  const dir = tempDir();
  const staticDir = path.join(dir, 'static');
  fs.mkdirSync(staticDir);
  fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>While Desk</title>');
  engine = createEngine({ dbPath: path.join(dir, 'desk.db') });
  server = await startServer({ engine, staticDir });
  port = server.port;
  apiUrl = `ws://127.0.0.1:${port}/api?token=${server.token}`;
  probe = await connectClient(apiUrl);
});

afterAll(async () => {
  probe?.socket.close();
  await server?.close();
  await engine?.close();
});

/** The server still serves: the connection opened at the start answers, and so does a brand-new one. */
async function stillServing(): Promise<void> {
  const info = (await within(probe.client.call('app.info', {}), 3_000, 'app.info on the first connection')) as { name: string };
  expect(info.name).toBe('while-desk');
  const fresh = await within(connectClient(apiUrl), 3_000, 'a new connection');
  await expect(within(fresh.client.call('app.info', {}), 3_000, 'app.info on a new connection')).resolves.toMatchObject({ name: 'while-desk' });
  fresh.socket.close();
}

const SECURITY_HEADERS = ['content-security-policy', 'x-content-type-options', 'referrer-policy', 'cache-control'];

function expectSecurityHeaders(text: string): void {
  const headers = headersOf(text);
  for (const name of SECURITY_HEADERS) expect(headers[name], `${name} in\n${text.slice(0, 300)}`).toBeTruthy();
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(headers['x-content-type-options']).toBe('nosniff');
}

describe('serve under hostile HTTP requests', () => {
  const host = () => `Host: 127.0.0.1:${port}`;
  const cases: Array<[string, () => string | Buffer, number | null]> = [
    ['malformed percent-encoding', () => request(['GET /%E0%A4%A HTTP/1.1', host()]), 400],
    ['a bare percent sign', () => request(['GET /%ZZ/%', host()]), 400],
    ['an encoded NUL', () => request(['GET /index.html%00.png HTTP/1.1', host()]), 400],
    ['absolute-form target', () => request(['GET http://evil.example/index.html HTTP/1.1', host()]), 400],
    ['asterisk target', () => request(['OPTIONS * HTTP/1.1', host()]), 405],
    ['protocol-relative target', () => request(['GET //evil.example/ HTTP/1.1', host()]), 400],
    ['a path out of the folder', () => request(['GET /..%2f..%2f..%2fetc%2fpasswd HTTP/1.1', host()]), 404],
    ['a missing file', () => request(['GET /nope.js HTTP/1.1', host()]), 404],
    ['POST with a body', () => request(['POST / HTTP/1.1', host(), 'Content-Length: 5']) + 'hello', 405],
    ['a foreign Host (DNS rebinding)', () => request(['GET / HTTP/1.1', `Host: evil.example:${port}`]), 421],
    ['the right port on another name', () => request(['GET / HTTP/1.1', `Host: 127.0.0.2:${port}`]), 421],
    ['no Host at all', () => request(['GET / HTTP/1.0']), 421],
    ['binary garbage', () => Buffer.from([0, 1, 2, 255, 254, 13, 10, 13, 10]), 400],
    ['a request line that is not HTTP', () => 'HELLO THERE\r\n\r\n', 400],
    ['headers over the size limit', () => request(['GET / HTTP/1.1', host(), `X-Big: ${'a'.repeat(70_000)}`]), null],
    ['a header with a NUL', () => `GET / HTTP/1.1\r\n${host()}\r\nX-Bad: a\0b\r\n\r\n`, 400],
    ['a request cut off mid-line', () => 'GET /index.ht', null],
  ];

  for (const [name, make, status] of cases) {
    it(`${name}: ${status ?? 'refused or dropped'}, and the server still serves`, async () => {
      const answer = await exchange(port, [make()], 1_500);
      if (status !== null) {
        expect(statusOf(answer.text), answer.text.slice(0, 200)).toBe(status);
        expectSecurityHeaders(answer.text);
      } else {
        expect(statusOf(answer.text) ?? 400).toBeGreaterThanOrEqual(400);
      }
      await stillServing();
    });
  }

  it('serves the page with the security headers, and every error reply has them too', async () => {
    const page = await fetch(`http://127.0.0.1:${port}/`);
    expect(page.status).toBe(200);
    for (const name of SECURITY_HEADERS) expect(page.headers.get(name)).toBeTruthy();
    const missing = await fetch(`http://localhost:${port}/no/such/file`);
    expect(missing.status).toBe(404);
    for (const name of SECURITY_HEADERS) expect(missing.headers.get(name)).toBeTruthy();
  });

  it('a client that resets mid-request only loses its own connection', async () => {
    await exchange(port, ['GET / HTTP/1.1\r\n', `${'X-A: b\r\n'.repeat(50)}`], 50);
    await stillServing();
  });
});

describe('serve under hostile upgrade requests', () => {
  const upgrade = (target: string, extra: string[] = [], hostHeader = `127.0.0.1:${port}`) =>
    request([`GET ${target} HTTP/1.1`, `Host: ${hostHeader}`, 'Upgrade: websocket', 'Connection: Upgrade', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==', 'Sec-WebSocket-Version: 13', ...extra]);
  const cases: Array<[string, () => string, number]> = [
    ['no token', () => upgrade('/api'), 401],
    ['a wrong token', () => upgrade('/api?token=wrong'), 401],
    ['a token with bad percent-encoding', () => upgrade('/api?token=%ZZ%'), 401],
    ['another path', () => upgrade(`/other?token=${server.token}`), 400],
    ['an absolute-form target', () => upgrade(`http://evil.example/api?token=${server.token}`), 400],
    ['a foreign Origin with the right token', () => upgrade(`/api?token=${server.token}`, ['Origin: http://evil.example']), 403],
    ['the opaque origin "null"', () => upgrade(`/api?token=${server.token}`, ['Origin: null']), 403],
    ['our port on another scheme', () => upgrade(`/api?token=${server.token}`, [`Origin: https://127.0.0.1:${port}`]), 403],
    ['a foreign Host with the right token', () => upgrade(`/api?token=${server.token}`, [], `evil.example:${port}`), 421],
    ['a missing WebSocket version', () => request([`GET /api?token=${server.token} HTTP/1.1`, `Host: 127.0.0.1:${port}`, 'Upgrade: websocket', 'Connection: Upgrade', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==']), 400],
    ['a bad WebSocket key', () => upgrade(`/api?token=${server.token}`).replace('dGhlIHNhbXBsZSBub25jZQ==', 'short'), 400],
    ['a malformed subprotocol list', () => upgrade(`/api?token=${server.token}`, ['Sec-WebSocket-Protocol: a,,b']), 400],
    ['an upgrade to another protocol', () => upgrade(`/api?token=${server.token}`).replace('Upgrade: websocket', 'Upgrade: h2c'), 400],
  ];

  for (const [name, make, status] of cases) {
    it(`${name}: ${status}, and the server still serves`, async () => {
      const answer = await exchange(port, [make()], 1_500);
      expect(statusOf(answer.text), answer.text.slice(0, 200)).toBe(status);
      expectSecurityHeaders(answer.text);
      await stillServing();
    });
  }

  it('accepts our own page as Origin, by number and by name, and a client with no Origin', async () => {
    for (const origin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`, undefined]) {
      const client = await connectClient(apiUrl, origin ? { origin } : {});
      await expect(client.client.call('app.info', {})).resolves.toMatchObject({ name: 'while-desk' });
      client.socket.close();
    }
  });

  it('refuses a foreign Origin and a foreign Host through a real client', async () => {
    await expect(connectClient(apiUrl, { origin: 'http://evil.example' })).rejects.toThrow(/403/);
    await expect(connectClient(apiUrl, { headers: { host: `rebound.example:${port}` } })).rejects.toThrow(/421/);
    await stillServing();
  });
});

describe('serve under hostile WebSocket frames', () => {
  const open = () => handshake(port, server.token);
  const cases: Array<[string, () => Buffer, number]> = [
    ['a text frame that is not UTF-8', () => frame(0x1, Buffer.from([0x7b, 0xff, 0xfe, 0x7d])), 1007],
    ['a frame over the size cap (by its header)', () => frame(0x1, Buffer.from('{}'), { claimedLength: MAX_FRAME_BYTES + 1 }), 1009],
    ['a binary frame', () => frame(0x2, Buffer.from('{"kind":"call","id":1,"method":"app.info"}')), 1003],
    ['an unmasked frame', () => frame(0x1, Buffer.from('{}'), { mask: false }), 1002],
    ['a reserved opcode', () => frame(0x3, Buffer.from('x')), 1002],
    ['a continuation with nothing to continue', () => frame(0x0, Buffer.from('x')), 1002],
    ['text that is not JSON', () => frame(0x1, Buffer.from('{"kind": "call", ')), 1008],
  ];

  for (const [name, make, code] of cases) {
    it(`${name}: the socket is closed with ${code}, and the server still serves`, async () => {
      const answer = await exchange(port, [open(), make()], 3_000, (bytes) => closeCodeOf(bytes) !== null);
      expect(statusOf(answer.text)).toBe(101);
      expect(closeCodeOf(answer.bytes)).toBe(code);
      await stillServing();
    });
  }
});

describe('serve under wrong-shaped calls', () => {
  const closing: Array<[string, string]> = [
    ['null', 'null'],
    ['an array', '[]'],
    ['a number', '42'],
    ['a string', '"app.info"'],
    ['an object without an id', '{"kind":"call","method":"app.info"}'],
    ['an id that is a string', '{"kind":"call","id":"1","method":"app.info"}'],
    ['an id past 2^53', '{"kind":"call","id":9007199254740993,"method":"app.info"}'],
    ['a negative id', '{"kind":"call","id":-1,"method":"app.info"}'],
    ['deep nesting', `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
  ];
  for (const [name, text] of closing) {
    it(`${name}: the socket is closed (1008), and the server still serves`, async () => {
      const client = await connectClient(apiUrl);
      client.sendRaw(text);
      expect(await within(client.closed, 3_000, 'close')).toBe(1008);
      await stillServing();
    });
  }

  const answered: Array<[string, unknown, string]> = [
    ['no method', { kind: 'call', id: 1 }, 'bad_input'],
    ['a method that is a number', { kind: 'call', id: 2, method: 42 }, 'bad_input'],
    ['an empty method', { kind: 'call', id: 3, method: '' }, 'bad_input'],
    ['a kind other than call', { kind: 'result', id: 4, ok: true, result: 1 }, 'bad_input'],
    ['an unknown method', { kind: 'call', id: 5, method: 'no.such.method', input: {} }, 'unknown_method'],
    ['__proto__ as the method', { kind: 'call', id: 6, method: '__proto__', input: {} }, 'unknown_method'],
    ['constructor as the method', { kind: 'call', id: 7, method: 'constructor', input: {} }, 'unknown_method'],
    ['input that is an array', { kind: 'call', id: 8, method: 'datasets.rows', input: [] }, 'bad_input'],
    ['input with the wrong types', { kind: 'call', id: 9, method: 'datasets.rows', input: { id: 5, limit: 'all' } }, 'bad_input'],
    ['a huge method name', { kind: 'call', id: 10, method: 'x'.repeat(100_000) }, 'bad_input'],
  ];
  for (const [name, message, code] of answered) {
    it(`${name}: an error reply (${code}), the same socket still answers, and so does the server`, async () => {
      const client = await connectClient(apiUrl);
      const reply = new Promise<unknown>((resolve) => client.socket.once('message', (data) => resolve(JSON.parse(String(data)))));
      client.sendRaw(JSON.stringify(message));
      const id = (message as { id: number }).id;
      expect(await within(reply, 3_000, 'the error reply')).toMatchObject({ kind: 'result', id, ok: false, error: { code } });
      await expect(client.client.call('app.info', {})).resolves.toMatchObject({ name: 'while-desk' });
      client.socket.close();
      await stillServing();
    });
  }

  it('a null input is read as no input, and the call is answered', async () => {
    const client = await connectClient(apiUrl);
    await expect(client.client.call('app.info', null)).resolves.toMatchObject({ name: 'while-desk' });
    client.socket.close();
  });
});
