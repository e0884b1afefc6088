// Serves one engine over any RpcChannel: checks every message, answers calls, forwards every event.
// Nothing a client sends can throw out of here: a bad call gets an error reply, a message that is not RPC
// at all ends the conversation (channel.close), and the engine goes on serving everyone else.
import { ApiError } from '../../shared/api/define';
import { checkRequest, type RpcChannel, type RpcMessage } from '../../shared/api/rpc';
import type { Engine } from './engine';

function toApiError(error: unknown): ApiError {
  return error instanceof ApiError ? error : new ApiError('internal', error instanceof Error ? error.message : String(error));
}

export function serveRpc(engine: Engine, channel: RpcChannel): () => void {
  let stopped = false;
  const send = (message: RpcMessage): void => {
    if (stopped) return;
    try {
      channel.send(message);
    } catch (error) {
      // A result that cannot be sent (the peer is gone, or it does not serialise) must not take the engine down.
      if (message.kind === 'result' && message.ok) {
        const failure = new ApiError('internal', `the result could not be sent: ${toApiError(error).message}`);
        try {
          channel.send({ kind: 'result', id: message.id, ok: false, error: failure.toJSON() });
        } catch {
          // the channel itself is broken; the transport's close handler stops this server
        }
      }
    }
  };

  channel.onMessage((raw) => {
    if (stopped) return;
    const check = checkRequest(raw);
    if (!check.ok) {
      if (check.id !== null) {
        send({ kind: 'result', id: check.id, ok: false, error: new ApiError('bad_input', check.reason, 'message').toJSON() });
      } else {
        channel.close?.(check.reason);
      }
      return;
    }
    const { id, method, input } = check.request;
    let pending: Promise<unknown>;
    try {
      pending = engine.callRaw(method, input);
    } catch (error) {
      pending = Promise.reject(error);
    }
    pending.then(
      (result) => send({ kind: 'result', id, ok: true, result }),
      (error: unknown) => send({ kind: 'result', id, ok: false, error: toApiError(error).toJSON() }),
    );
  });

  const unsubscribe = engine.onAny((event, payload) => send({ kind: 'event', event, payload }));
  return () => {
    stopped = true;
    unsubscribe();
  };
}
