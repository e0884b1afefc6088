// The browser transport for `while-desk serve`: the typed API over a WebSocket, token from the page URL.
import type { Transport } from '../../../shared/api/client';
import { RpcClient } from '../../../shared/api/rpc';

export type ConnectionState = 'connecting' | 'open' | 'refused' | 'closed';

export interface WsTransport extends Transport {
  /** Resolves once the socket is open; rejects when it never opened (wrong token, server gone). */
  ready: Promise<void>;
}

const TOKEN_KEY = 'while-desk.token';

/**
 * The API token: read from the address the person opened (`?token=...`), then taken out of the address bar
 * (history.replaceState) so it does not linger in history, screenshots or a copied link. It is kept in this
 * tab's sessionStorage so a reload still connects; a new address with a token replaces it.
 */
export function takeToken(location: Location, history: History, storage: Storage | null): string | null {
  const params = new URLSearchParams(location.search);
  const fromAddress = params.get('token');
  if (fromAddress) {
    try {
      storage?.setItem(TOKEN_KEY, fromAddress);
    } catch {
      // storage may be disabled; the token then lives only for this page
    }
    params.delete('token');
    const search = params.toString();
    history.replaceState(history.state, '', `${location.pathname}${search ? `?${search}` : ''}${location.hash}`);
    return fromAddress;
  }
  try {
    return storage?.getItem(TOKEN_KEY) ?? null;
  } catch {
    return null;
  }
}

/** `ws://host/api?token=...` for the page's own host. */
export function apiSocketUrl(location: Location, token: string | null): string | null {
  if (!token) return null;
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/api?token=${encodeURIComponent(token)}`;
}

export function wsTransport(url: string, onState: (state: ConnectionState) => void): WsTransport {
  const socket = new WebSocket(url);
  const listeners: Array<(message: unknown) => void> = [];
  const queued: string[] = [];
  let opened = false;
  const client = new RpcClient({
    send(message) {
      const text = JSON.stringify(message);
      if (socket.readyState === WebSocket.OPEN) socket.send(text);
      else if (socket.readyState === WebSocket.CONNECTING) queued.push(text);
      else throw new Error('the connection to the engine is closed; reload the page with the URL `while-desk serve` printed');
    },
    onMessage(listener) {
      listeners.push(listener);
    },
  });
  onState('connecting');
  const ready = new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => {
      opened = true;
      onState('open');
      for (const text of queued.splice(0)) socket.send(text);
      resolve();
    });
    socket.addEventListener('close', () => {
      onState(opened ? 'closed' : 'refused');
      client.failAll(
        opened
          ? 'the connection to the engine closed (was `while-desk serve` stopped?)'
          : 'the engine refused the connection: the token in the address is wrong or missing',
      );
      reject(new Error('not connected'));
    });
  });
  ready.catch(() => undefined);
  socket.addEventListener('message', (event) => {
    let message: unknown;
    try {
      message = JSON.parse(String(event.data));
    } catch {
      return;
    }
    listeners.forEach((listener) => listener(message));
  });
  return {
    ready,
    call: (method, input) => client.call(method, input),
    on: (event, listener) => client.on(event, listener),
  };
}
