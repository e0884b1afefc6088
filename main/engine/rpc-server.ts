// Serves one engine over any RpcChannel: answers calls, forwards every event.
import { ApiError } from '../../shared/api/define';
import type { RpcChannel } from '../../shared/api/rpc';
import type { Engine } from './engine';

export function serveRpc(engine: Engine, channel: RpcChannel): () => void {
  channel.onMessage((message) => {
    if (message.kind !== 'call') return;
    engine.callRaw(message.method, message.input).then(
      (result) => channel.send({ kind: 'result', id: message.id, ok: true, result }),
      (error: unknown) => {
        const apiError = error instanceof ApiError ? error : new ApiError('internal', error instanceof Error ? error.message : String(error));
        channel.send({ kind: 'result', id: message.id, ok: false, error: apiError.toJSON() });
      },
    );
  });
  return engine.onAny((event, payload) => channel.send({ kind: 'event', event, payload }));
}
