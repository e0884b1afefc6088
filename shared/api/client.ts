// A typed client over any transport: `client.call('datasets.list', {})` is checked against the declarations.
import type { EventName, EventPayload, MethodInput, MethodName, MethodOutput } from './index';

export interface Transport {
  call(method: string, input: unknown): Promise<unknown>;
  on(event: string, listener: (payload: unknown) => void): () => void;
}

export interface DeskClient {
  call<M extends MethodName>(method: M, input: MethodInput<M>): Promise<MethodOutput<M>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
}

export function typedClient(transport: Transport): DeskClient {
  return {
    call: (method, input) => transport.call(method, input) as never,
    on: (event, listener) => transport.on(event, listener as (payload: unknown) => void),
  };
}
