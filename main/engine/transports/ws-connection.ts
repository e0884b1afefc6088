// One API WebSocket: text frames of JSON in, RPC out. What the frame layer refuses (bad UTF-8, oversize,
// unmasked) closes this socket through `ws`; a binary frame or text that is not JSON closes it here; a call of the
// wrong shape gets an error reply (serveRpc). Other connections never notice.
import type { WebSocket } from 'ws';
import type { Engine } from '../engine';
import { serveRpc } from '../rpc-server';

/** A client that stops reading while results pile up is dropped rather than let it fill the engine's memory. */
const MAX_BUFFERED_BYTES = 256 * 1024 * 1024;

/** WebSocket close codes (RFC 6455 §7.4.1). */
const UNSUPPORTED_DATA = 1003;
const POLICY_VIOLATION = 1008;

export function attachSocket(engine: Engine, ws: WebSocket): void {
  const listeners: Array<(message: unknown) => void> = [];
  const close = (code: number, reason: string): void => {
    // A close reason is at most 123 bytes.
    if (ws.readyState === ws.OPEN) ws.close(code, Buffer.from(reason).subarray(0, 120).toString());
  };
  ws.on('error', () => ws.terminate());
  ws.on('message', (data, isBinary) => {
    if (isBinary) return close(UNSUPPORTED_DATA, 'the API speaks JSON in text frames');
    let message: unknown;
    try {
      message = JSON.parse(data.toString());
    } catch {
      return close(POLICY_VIOLATION, 'a frame that is not JSON');
    }
    for (const listener of listeners) listener(message);
  });
  const stop = serveRpc(engine, {
    send: (message) => {
      if (ws.readyState !== ws.OPEN) return;
      if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
        ws.terminate();
        return;
      }
      ws.send(JSON.stringify(message));
    },
    onMessage: (listener) => listeners.push(listener),
    close: (reason) => close(POLICY_VIOLATION, reason),
  });
  ws.on('close', stop);
}
