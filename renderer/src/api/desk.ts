// Picks the transport for this host (Electron preload or a browser against `serve`) and exposes one typed client.
import { typedClient, type DeskClient, type Transport } from '../../../shared/api/client';
import { ApiError } from '../../../shared/api/define';
import { errorShape } from '../../../shared/api/rpc';
import { apiSocketUrl, takeToken, wsTransport, type ConnectionState } from './ws-transport';

declare global {
  interface Window {
    /** Set by the Electron preload; absent in a plain browser. */
    desk?: Transport;
  }
}

export type { ConnectionState };

export interface Connection {
  client: DeskClient;
  host: 'electron' | 'browser';
  /** Set when no transport could be made at all (e.g. no token in the address). */
  problem: string | null;
}

const stateListeners = new Set<(state: ConnectionState) => void>();
let lastState: ConnectionState = 'connecting';

function setState(state: ConnectionState): void {
  lastState = state;
  stateListeners.forEach((listener) => listener(state));
}

export function onConnectionState(listener: (state: ConnectionState) => void): () => void {
  stateListeners.add(listener);
  listener(lastState);
  return () => stateListeners.delete(listener);
}

function unavailable(reason: string): Transport {
  return { call: () => Promise.reject(new ApiError('failed', reason)), on: () => () => undefined };
}

/**
 * The preload rejects with a plain {code, message, where} (an Error loses its fields crossing the context bridge);
 * made an ApiError again here, so a page sees the same error from the desktop app as from `serve`.
 */
function withApiErrors(transport: Transport): Transport {
  return {
    call: (method, input) => transport.call(method, input).catch((error: unknown) => Promise.reject(ApiError.from(errorShape(error)))),
    on: (event, listener) => transport.on(event, listener),
  };
}

function sessionStorageOrNull(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

let browserToken: string | null = null;

/** Where a browser fetches a download `serve` made (training.export with download: true); null in the desktop app. */
export function downloadHref(downloadId: string): string | null {
  return browserToken ? `/download/${encodeURIComponent(downloadId)}?token=${encodeURIComponent(browserToken)}` : null;
}

function connect(): Connection {
  if (window.desk) {
    setState('open');
    return { client: typedClient(withApiErrors(window.desk)), host: 'electron', problem: null };
  }
  browserToken = takeToken(window.location, window.history, sessionStorageOrNull());
  const url = apiSocketUrl(window.location, browserToken);
  if (!url) {
    const problem = 'This address has no token. Open the full URL that `while-desk serve` printed (it ends in ?token=...).';
    setState('refused');
    return { client: typedClient(unavailable(problem)), host: 'browser', problem };
  }
  return { client: typedClient(wsTransport(url, setState)), host: 'browser', problem: null };
}

export const connection: Connection = connect();
export const desk: DeskClient = connection.client;

/** A readable line for any error a call rejected with. */
export function errorText(error: unknown): string {
  if (error && typeof error === 'object' && 'message' in error) {
    const where = 'where' in error && typeof error.where === 'string' && error.where ? ` (${error.where})` : '';
    return String((error as { message: unknown }).message) + where;
  }
  return String(error);
}
