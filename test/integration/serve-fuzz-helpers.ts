// Raw sockets for the serve fuzz test: HTTP requests written byte for byte, and WebSocket frames crafted by hand.
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import WebSocket from 'ws';
import { RpcClient } from '../../shared/api/rpc';

export interface Exchange {
  /** Everything the server sent, as latin1 text (headers are ASCII; frames are read as bytes). */
  text: string;
  bytes: Buffer;
  /** The server closed the connection before the wait ran out. */
  closed: boolean;
}

/** Writes each chunk to a fresh connection to 127.0.0.1 and collects the answer until the server closes it or `waitMs`. */
export function exchange(port: number, chunks: Array<string | Buffer>, waitMs = 2_000, settle?: (bytes: Buffer) => boolean): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    let done = false;
    const finish = (closed: boolean): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const bytes = Buffer.concat(received);
      resolve({ text: bytes.toString('latin1'), bytes, closed });
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.on('error', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('data', (data) => {
      received.push(data);
      if (settle?.(Buffer.concat(received))) finish(false);
    });
    socket.on('connect', () => {
      for (const chunk of chunks) socket.write(chunk);
    });
  });
}

export function statusOf(text: string): number | null {
  const match = /^HTTP\/1\.1 (\d{3})/.exec(text);
  return match ? Number(match[1]) : null;
}

/** The headers of a raw response, names lower-cased. */
export function headersOf(text: string): Record<string, string> {
  const head = text.split('\r\n\r\n')[0] ?? '';
  const headers: Record<string, string> = {};
  for (const line of head.split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

export function request(lines: string[]): string {
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** A WebSocket handshake for /api, written by hand so frames after it can be anything. */
export function handshake(port: number, token: string, extra: string[] = []): string {
  return request([
    `GET /api?token=${token} HTTP/1.1`,
    `Host: 127.0.0.1:${port}`,
    'Upgrade: websocket',
    'Connection: Upgrade',
    `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
    'Sec-WebSocket-Version: 13',
    ...extra,
  ]);
}

/** One client frame (RFC 6455 §5.2). `claimedLength` lies about the payload size; `mask: false` breaks the rule. */
export function frame(opcode: number, payload: Buffer, options: { mask?: boolean; fin?: boolean; claimedLength?: number } = {}): Buffer {
  const { mask = true, fin = true } = options;
  const length = options.claimedLength ?? payload.length;
  const head: number[] = [(fin ? 0x80 : 0) | opcode];
  const maskBit = mask ? 0x80 : 0;
  let extended = Buffer.alloc(0);
  if (length < 126) head.push(maskBit | length);
  else if (length < 65_536) {
    head.push(maskBit | 126);
    extended = Buffer.alloc(2);
    extended.writeUInt16BE(length);
  } else {
    head.push(maskBit | 127);
    extended = Buffer.alloc(8);
    extended.writeBigUInt64BE(BigInt(length));
  }
  const key = mask ? randomBytes(4) : Buffer.alloc(0);
  const body = Buffer.from(payload.map((byte, i) => (mask ? byte ^ key[i % 4] : byte)));
  return Buffer.concat([Buffer.from(head), extended, key, body]);
}

/** The close code in the first close frame the server sent after its 101, or null. */
export function closeCodeOf(bytes: Buffer): number | null {
  const start = bytes.indexOf('\r\n\r\n');
  if (start < 0) return null;
  const frames = bytes.subarray(start + 4);
  for (let at = 0; at + 2 <= frames.length; ) {
    const opcode = frames[at] & 0x0f;
    let length = frames[at + 1] & 0x7f;
    let offset = at + 2;
    if (length === 126) {
      length = frames.readUInt16BE(offset);
      offset += 2;
    } else if (length === 127) {
      length = Number(frames.readBigUInt64BE(offset));
      offset += 8;
    }
    if (opcode === 0x8) return length >= 2 ? frames.readUInt16BE(offset) : 1005;
    at = offset + length;
  }
  return null;
}

export interface Client {
  client: RpcClient;
  socket: WebSocket;
  /** Resolves with the close code once the server closes this socket. */
  closed: Promise<number>;
  /** Sends raw text as one frame, bypassing the RPC client. */
  sendRaw(text: string): void;
}

export function connectClient(url: string, options: WebSocket.ClientOptions = {}): Promise<Client> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, options);
    const listeners: Array<(message: unknown) => void> = [];
    const closed = new Promise<number>((done) => socket.once('close', (code) => done(code)));
    socket.on('message', (data) => listeners.forEach((listener) => listener(JSON.parse(String(data)))));
    socket.on('error', () => undefined);
    socket.once('open', () =>
      resolve({
        socket,
        closed,
        sendRaw: (text) => socket.send(text),
        client: new RpcClient({ send: (m) => socket.send(JSON.stringify(m)), onMessage: (l) => listeners.push(l) }),
      }),
    );
    socket.once('unexpected-response', (_request, response) => reject(new Error(`HTTP ${response.statusCode}`)));
    socket.once('error', reject);
  });
}

export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
