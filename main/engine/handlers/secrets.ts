// Handlers for keychain-stored API keys; without a keychain (CLI, serve) they say so instead of storing anything.
import { ApiError } from '../../../shared/api/define';
import type { secretsApi } from '../../../shared/api/secrets';
import type { EngineContext } from '../context';
import type { HandlerMap } from './types';

function store(ctx: EngineContext) {
  if (!ctx.secrets) {
    throw new ApiError('failed', 'no OS keychain here (CLI or `while-desk serve`): set the key in an environment variable and name it with --api-key-env');
  }
  return ctx.secrets;
}

export const secretsHandlers: HandlerMap<keyof typeof secretsApi> = {
  'secrets.status': async (_input, ctx) => ({ available: Boolean(ctx.secrets), names: ctx.secrets ? await ctx.secrets.list() : [] }),
  'secrets.set': async (input, ctx) => {
    await store(ctx).set(input.name, input.value);
    return { stored: true };
  },
  'secrets.delete': async (input, ctx) => ({ deleted: await store(ctx).delete(input.name) }),
};
