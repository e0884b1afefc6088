// The engine host's SecretStore in the desktop app: each request goes to Electron main, which owns the OS
// keychain (safeStorage). Values cross only this private channel, never the renderer's.
import type { SecretStore } from './secret-store';

export type SecretRequest =
  | { type: 'secret'; id: number; op: 'list' }
  | { type: 'secret'; id: number; op: 'get' | 'delete'; name: string }
  | { type: 'secret'; id: number; op: 'set'; name: string; value: string };

export type SecretReply = { type: 'secret-reply'; id: number; ok: true; value?: unknown } | { type: 'secret-reply'; id: number; ok: false; error: string };

export interface ParentChannel {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
}

type Request = { op: 'list' } | { op: 'get' | 'delete'; name: string } | { op: 'set'; name: string; value: string };

export function parentSecretStore(parent: ParentChannel): SecretStore {
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  parent.on('message', (event) => {
    const reply = event.data as SecretReply;
    if (reply?.type !== 'secret-reply') return;
    const waiter = waiting.get(reply.id);
    waiting.delete(reply.id);
    if (!waiter) return;
    if (reply.ok) waiter.resolve(reply.value);
    else waiter.reject(new Error(reply.error));
  });
  const ask = (request: Request): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      parent.postMessage({ type: 'secret', id, ...request });
    });
  return {
    list: async () => (await ask({ op: 'list' })) as string[],
    get: async (name) => (await ask({ op: 'get', name })) as string | undefined,
    set: async (name, value) => void (await ask({ op: 'set', name, value })),
    delete: async (name) => (await ask({ op: 'delete', name })) as boolean,
  };
}
