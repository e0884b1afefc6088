// The renderer's only door to the engine: one small object, `window.desk`, over a MessagePort.
// ipcRenderer itself is never exposed.
import { contextBridge, ipcRenderer } from 'electron';

type Listener = (payload: unknown) => void;

const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: unknown) => void }>();
const listeners = new Map<string, Set<Listener>>();
const queued: unknown[] = [];
let port: MessagePort | null = null;
let nextId = 1;

ipcRenderer.on('desk:port', (event) => {
  port = event.ports[0];
  port.onmessage = (message) => {
    const data = message.data as { kind: string; id?: number; ok?: boolean; result?: unknown; error?: unknown; event?: string; payload?: unknown };
    if (data.kind === 'result' && data.id !== undefined) {
      const waiter = pending.get(data.id);
      pending.delete(data.id);
      if (!waiter) return;
      if (data.ok) waiter.resolve(data.result);
      else waiter.reject(data.error);
    } else if (data.kind === 'event' && data.event) {
      listeners.get(data.event)?.forEach((listener) => listener(data.payload));
    }
  };
  port.start();
  for (const message of queued.splice(0)) port.postMessage(message);
});

contextBridge.exposeInMainWorld('desk', {
  call(method: string, input: unknown): Promise<unknown> {
    if (typeof method !== 'string') return Promise.reject(new Error('method must be a string'));
    const id = nextId++;
    const message = { kind: 'call', id, method, input };
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      if (port) port.postMessage(message);
      else queued.push(message);
    });
  },
  on(event: string, listener: Listener): () => void {
    let set = listeners.get(event);
    if (!set) listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  },
});
