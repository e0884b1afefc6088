// The engine: one implementation behind every transport. Validates input and output at the boundary.
import { EventEmitter } from 'node:events';
import { ApiError, describeZodError } from '../../shared/api/define';
import type { EventName, EventPayload, MethodInput, MethodName, MethodOutput } from '../../shared/api/index';
import { openDatabase, resolveDbPath, type Db, type OpenOptions } from '../db/connection';
import { recoverInterruptedGrades } from '../db/repos/datasets';
import { recoverInterruptedImports } from '../rows/index';
import { startChangeFeed, type ChangeFeed } from './change-feed';
import type { EngineContext } from './context';
import type { SecretStore } from './secret-store';
import { handlerFor, loadAllHandlers } from './handlers/index';
import { methodSpec } from './method-specs';
import { statsPool } from '../stats-workers/engine-pool';

/** Where an engine opened with this `dbPath` keeps its database (clients check for it before opening one). */
export { resolveDbPath as engineDbPath };

export interface EngineOptions extends OpenOptions {
  dbPath?: string;
  /** The desktop app's keychain; agents then also find keys there (api-key.ts). */
  secrets?: SecretStore;
  /**
   * Check every handler's result against its method's output schema and fail the call on a mismatch (tests
   * turn this on, so a handler cannot return a shape its schema does not allow). Default: WHILE_DESK_CHECK_OUTPUTS=1.
   */
  checkOutputs?: boolean;
  /**
   * A long-lived host (the app, `serve`): start automatic sync on open if the person turned it on, and keep the
   * While key's keychain copy (main/sync/keychain-key.ts). Off for one-shot CLI commands.
   */
  autoSync?: boolean;
  /**
   * Load every domain's handlers in the background once open (default: as autoSync, i.e. in a long-lived host), so
   * the person's first call finds its handler loaded; a one-shot command loads only the domain it calls.
   */
  preloadHandlers?: boolean;
}

export interface Engine {
  readonly ctx: EngineContext;
  /** Untyped entry for transports: validates the method name and input. */
  callRaw(method: string, input: unknown): Promise<unknown>;
  call<M extends MethodName>(method: M, input: MethodInput<M>): Promise<MethodOutput<M>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
  onAny(listener: (event: string, payload: unknown) => void): () => void;
  close(): Promise<void>;
  /** Settles once the handlers preloadHandlers asked for are loaded (at once when none were asked for). */
  readonly ready: Promise<void>;
}

export function createEngine(options: EngineOptions = {}): Engine {
  const dbPath = resolveDbPath(options.dbPath);
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  const cleanups: Array<() => void | Promise<void>> = [];
  const emit: EngineContext['emit'] = (event, payload) => {
    emitter.emit(event, payload);
    emitter.emit('*', event, payload);
  };
  // The database opens on first use: a command on files alone (`stats` on a JSONL file) neither opens nor creates
  // one, and starts some 10 ms sooner. A long-lived host (the app, `serve`) opens it at once, below.
  let opened: { db: Db; feed: ChangeFeed } | null = null;
  let closed = false;
  const database = () => {
    if (!opened) {
      // Never reopened by something that outlived the engine (it would hold a connection nobody closes).
      if (closed) throw new ApiError('failed', 'the engine is closed');
      const db = openDatabase(dbPath, options);
      recoverInterruptedImports(db);
      recoverInterruptedGrades(db);
      opened = { db, feed: startChangeFeed(db, emit) };
    }
    return opened;
  };
  const ctx: EngineContext = {
    get db() {
      return database().db;
    },
    dbPath,
    emit,
    publishChanges: () => opened?.feed.publish(),
    onClose: (cleanup) => cleanups.push(cleanup),
    secrets: options.secrets,
  };
  if (options.preloadHandlers ?? options.autoSync) database();

  const checkOutputs = options.checkOutputs ?? process.env.WHILE_DESK_CHECK_OUTPUTS === '1';
  // A long-lived host loads its handlers while idle, then starts its statistics worker thread, which prepares for
  // jobs a moment later (stats-worker.ts): the compare screen's first report then needs no thread start (some 0.35 s
  // while a page loads beside it), and the label desk's first row on a cold start stays about as it was (0.75 s
  // median against 0.80 s; preparing at once made it 0.91 s). test/bench/label-cold.bench.mjs, compare-screen.bench.mjs.
  const ready = options.preloadHandlers ?? options.autoSync ? new Promise<void>((resolve) => setImmediate(resolve)).then(loadAllHandlers).then(() => statsPool(ctx).warm()) : Promise.resolve();
  // Awaited by close, so a drain it starts is settled with the rest.
  const opening = options.autoSync ? import('./handlers/sync').then((sync) => sync.startSyncOnOpen(ctx)) : Promise.resolve();

  async function callRaw(method: string, input: unknown): Promise<unknown> {
    const found = await methodSpec(method);
    if (!found) throw new ApiError('unknown_method', `no method named "${method}"`);
    const { spec } = found;
    const parsed = spec.input.safeParse(input ?? {});
    if (!parsed.success) throw new ApiError('bad_input', `${method}: ${describeZodError(parsed.error)}`, method);
    let result: unknown;
    try {
      const handler = await handlerFor(found.method);
      result = await handler(parsed.data, ctx);
    } catch (error) {
      if (error instanceof ApiError) throw error;
      const message = error instanceof Error ? error.message : String(error);
      throw new ApiError('internal', `${method} failed: ${message}`);
    }
    if (checkOutputs) {
      const checked = spec.output.safeParse(result);
      if (!checked.success) throw new ApiError('internal', `${method} returned a shape its output schema does not allow: ${describeZodError(checked.error)}`, method);
    }
    return result;
  }

  return {
    ctx,
    ready,
    callRaw,
    call: (method, input) => callRaw(method, input) as never,
    on: (event, listener) => {
      emitter.on(event, listener as (payload: unknown) => void);
      return () => emitter.off(event, listener as (payload: unknown) => void);
    },
    onAny: (listener) => {
      emitter.on('*', listener);
      return () => emitter.off('*', listener);
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await opening;
      for (const cleanup of cleanups.reverse()) await cleanup();
      if (opened) {
        opened.feed.close();
        opened.db.close();
      }
    },
  };
}
