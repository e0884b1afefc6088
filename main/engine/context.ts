// What every handler gets: the one writer connection, an event emitter, and shutdown hooks.
import type { Db } from '../db/connection';
import type { EventName, EventPayload } from '../../shared/api/index';
import type { SecretStore } from './secret-store';

export interface EngineContext {
  db: Db;
  dbPath: string;
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void;
  /** Publishes the change events of what was written so far (handlers/write.ts calls it after the commit). */
  publishChanges(): void;
  /** Register cleanup to run when the engine closes (worker pools, child processes). */
  onClose(cleanup: () => void | Promise<void>): void;
  /** The OS keychain, in the desktop app only. */
  secrets?: SecretStore;
}
