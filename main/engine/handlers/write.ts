// The write wrapper, at the declaration of every handler that writes (as Actual Budget's `mutator` wraps its
// handlers): `write(handler)` runs the handler in one transaction and publishes the change events after the
// commit (change-feed.ts); no handler emits change events by hand. This is where undo (appending the inverse
// records) and the sync outbox (an item per committed change) attach, in the same transaction.
//
// Async writers (an import, a run, a grade) cannot hold one SQLite transaction across awaits: `writeAsync` marks
// them. Each of their batches is its own transaction through the rows module (appendRows bumps the version and
// notes the change), published as it commits, and once more when the handler settles.
import type { MethodName } from '../../../shared/api/index';
import type { Handler } from './types';

export function write<M extends MethodName>(handler: Handler<M>): Handler<M> {
  return (input, ctx) => {
    try {
      return ctx.db.transaction(() => {
        const out = handler(input, ctx);
        if (out instanceof Promise) throw new Error('a write handler must be synchronous (use writeAsync)');
        return out;
      })();
    } finally {
      ctx.publishChanges();
    }
  };
}

export function writeAsync<M extends MethodName>(handler: Handler<M>): Handler<M> {
  return async (input, ctx) => {
    try {
      return await handler(input, ctx);
    } finally {
      ctx.publishChanges();
    }
  };
}
