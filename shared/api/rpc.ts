// The wire protocol every transport speaks (MessagePort in the app, WebSocket for `serve`).
import { ApiError, type ApiErrorShape } from './define';

export type RpcRequest = { kind: 'call'; id: number; method: string; input: unknown };
export type RpcResponse =
  | { kind: 'result'; id: number; ok: true; result: unknown }
  | { kind: 'result'; id: number; ok: false; error: ApiErrorShape };
export type RpcEvent = { kind: 'event'; event: string; payload: unknown };
export type RpcMessage = RpcRequest | RpcResponse | RpcEvent;

/** Anything that can carry RPC messages both ways. */
export interface RpcChannel {
  send(message: RpcMessage): void;
  onMessage(listener: (message: RpcMessage) => void): void;
}

/** Client half: pending calls by id, event fan-out. */
export class RpcClient {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private readonly listeners = new Map<string, Set<(payload: unknown) => void>>();

  constructor(private readonly channel: RpcChannel) {
    channel.onMessage((message) => {
      if (message.kind === 'result') {
        const waiter = this.pending.get(message.id);
        if (!waiter) return;
        this.pending.delete(message.id);
        if (message.ok) waiter.resolve(message.result);
        else waiter.reject(ApiError.from(message.error));
      } else if (message.kind === 'event') {
        this.listeners.get(message.event)?.forEach((listener) => listener(message.payload));
      }
    });
  }

  call(method: string, input: unknown): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.channel.send({ kind: 'call', id, method, input });
    });
  }

  on(event: string, listener: (payload: unknown) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  /** Fails every call in flight, e.g. when the connection dropped. */
  failAll(reason: string): void {
    for (const waiter of this.pending.values()) waiter.reject(new ApiError('failed', reason));
    this.pending.clear();
  }
}
