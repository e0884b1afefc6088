// What the preload exposes as `window.desk`, kept free of `electron` so it is unit-tested under Node with a
// MessageChannel. Calls go through the same RpcClient as the browser's WebSocket transport; a rejection is the
// plain {code, message, where, details} of an ApiError, since an Error loses its own fields crossing contextBridge.
import { isFileKind, type FileKind } from '../shared/api/file-kinds';
import { RpcClient } from '../shared/api/rpc';

/** The renderer's end of the MessagePort Electron main hands over once the page has loaded. */
export interface PortLike {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  start(): void;
}

export interface DeskBridge {
  call(method: string, input: unknown): Promise<unknown>;
  on(event: string, listener: (payload: unknown) => void): () => void;
  /** A native open dialog for one kind of file: the chosen path, or null when cancelled. */
  pickFile(kind: FileKind): Promise<string | null>;
  /** A native save dialog suggesting a file name: the chosen path, or null when cancelled. */
  pickSavePath(suggestedName: string): Promise<string | null>;
}

export interface Bridged {
  desk: DeskBridge;
  /** Hands over the port; calls made before it arrived are sent now, in order. */
  connect(port: PortLike): void;
}

export function createDeskBridge(
  openDialog: (kind: FileKind) => Promise<string | null>,
  saveDialog: (suggestedName: string) => Promise<string | null> = async () => null,
): Bridged {
  let port: PortLike | null = null;
  const queued: unknown[] = [];
  let deliver: (message: unknown) => void = () => undefined;
  const client = new RpcClient({
    send(message) {
      if (port) port.postMessage(message);
      else queued.push(message);
    },
    onMessage(listener) {
      deliver = listener;
    },
  });
  const plainError = (error: unknown): Promise<never> =>
    Promise.reject(error && typeof error === 'object' && 'toJSON' in error && typeof error.toJSON === 'function' ? error.toJSON() : error);
  return {
    connect(next) {
      port = next;
      port.addEventListener('message', (event) => deliver(event.data));
      port.start();
      for (const message of queued.splice(0)) port.postMessage(message);
    },
    desk: {
      call: (method, input) => client.call(method, input).catch(plainError),
      on: (event, listener) => client.on(String(event), listener),
      pickFile: (kind) =>
        isFileKind(kind)
          ? openDialog(kind).then((path) => (typeof path === 'string' ? path : null))
          : plainError({ code: 'bad_input', message: `no file kind "${String(kind)}"`, where: 'pickFile' }),
      pickSavePath: (suggestedName) => saveDialog(String(suggestedName)).then((path) => (typeof path === 'string' ? path : null)),
    },
  };
}
