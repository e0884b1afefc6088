// The wire protocol every transport speaks (MessagePort in the app, WebSocket for `serve`), and its one validator.
// The validator is plain code rather than zod so the sandboxed preload, which cannot require packages, bundles it.
import { ApiError, type ApiErrorCode, type ApiErrorShape } from './define';

export type RpcRequest = { kind: 'call'; id: number; method: string; input: unknown };
export type RpcResponse =
  | { kind: 'result'; id: number; ok: true; result: unknown }
  | { kind: 'result'; id: number; ok: false; error: ApiErrorShape };
export type RpcEvent = { kind: 'event'; event: string; payload: unknown };
export type RpcMessage = RpcRequest | RpcResponse | RpcEvent;

/** Anything that can carry RPC messages both ways. What arrives is untrusted until checked below. */
export interface RpcChannel {
  send(message: RpcMessage): void;
  onMessage(listener: (message: unknown) => void): void;
  /** Ends the conversation after a message that is not RPC at all (the WebSocket closes with 1008). */
  close?(reason: string): void;
}

/** A checked request, or why it is refused; `id` is set when the sender can still be answered. */
export type RequestCheck = { ok: true; request: RpcRequest } | { ok: false; id: number | null; reason: string };

const MAX_METHOD_LENGTH = 200;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isId(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : typeof value;
}

/** The one check for a call, used by every server-side transport. */
export function checkRequest(value: unknown): RequestCheck {
  if (!isRecord(value)) return { ok: false, id: null, reason: `an RPC call is a JSON object, not ${kindOf(value)}` };
  const id = isId(value.id) ? value.id : null;
  if (id === null) return { ok: false, id, reason: 'an RPC call needs "id", a non-negative integer' };
  if (value.kind !== 'call') return { ok: false, id, reason: 'an RPC call has "kind": "call"' };
  if (typeof value.method !== 'string' || value.method.length === 0 || value.method.length > MAX_METHOD_LENGTH) {
    return { ok: false, id, reason: `"method" must be a method name (a string of 1 to ${MAX_METHOD_LENGTH} characters)` };
  }
  return { ok: true, request: { kind: 'call', id, method: value.method, input: value.input } };
}

const ERROR_CODES = new Set<ApiErrorCode>(['bad_input', 'not_found', 'unknown_method', 'conflict', 'cancelled', 'unauthorized', 'failed', 'internal']);

/** An error shape from the other side, kept to its known fields so every transport rejects alike. */
export function errorShape(value: unknown): ApiErrorShape {
  if (!isRecord(value)) return { code: 'internal', message: String(value) };
  const code = ERROR_CODES.has(value.code as ApiErrorCode) ? (value.code as ApiErrorCode) : 'internal';
  const message = typeof value.message === 'string' ? value.message : 'the engine failed without a message';
  const shape: ApiErrorShape = { code, message };
  if (typeof value.where === 'string') shape.where = value.where;
  if (value.details !== undefined) shape.details = value.details;
  return shape;
}

/** The one check for what a server sends back: a result or an event; anything else is dropped (null). */
export function checkServerMessage(value: unknown): RpcResponse | RpcEvent | null {
  if (!isRecord(value)) return null;
  if (value.kind === 'event') return typeof value.event === 'string' ? { kind: 'event', event: value.event, payload: value.payload } : null;
  if (value.kind !== 'result' || !isId(value.id)) return null;
  if (value.ok === true) return { kind: 'result', id: value.id, ok: true, result: value.result };
  return { kind: 'result', id: value.id, ok: false, error: errorShape(value.error) };
}

/** Client half: pending calls by id, event fan-out. Every call rejects with an ApiError. */
export class RpcClient {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: ApiError) => void }>();
  private readonly listeners = new Map<string, Set<(payload: unknown) => void>>();

  constructor(private readonly channel: RpcChannel) {
    channel.onMessage((raw) => {
      const message = checkServerMessage(raw);
      if (message?.kind === 'result') {
        const waiter = this.pending.get(message.id);
        if (!waiter) return;
        this.pending.delete(message.id);
        if (message.ok) waiter.resolve(message.result);
        else waiter.reject(ApiError.from(message.error));
      } else if (message?.kind === 'event') {
        this.listeners.get(message.event)?.forEach((listener) => listener(message.payload));
      }
    });
  }

  call(method: string, input: unknown): Promise<unknown> {
    if (typeof method !== 'string') return Promise.reject(new ApiError('bad_input', 'the method name must be a string'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      try {
        this.channel.send({ kind: 'call', id, method, input });
      } catch (error) {
        this.pending.delete(id);
        reject(error instanceof ApiError ? error : new ApiError('failed', error instanceof Error ? error.message : String(error), method));
      }
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
