// Automatic sync: off until the person turns it on (a setting in the database). When on, the engine drains the
// outbox by itself: right after something is queued, and every half minute for items waiting on a backoff.
import type { Db } from '../db/connection';
import { getSetting, setSetting } from '../db/repos/settings';
import { PlatformClient } from './client';
import { drainOutbox, type DrainOptions } from './outbox-runner';

const AUTO_KEY = 'sync.auto';
const TICK_MS = 30_000;

export function autoSyncEnabled(db: Db): boolean {
  return getSetting(db, AUTO_KEY) === true;
}

export function setAutoSync(db: Db, enabled: boolean): void {
  setSetting(db, AUTO_KEY, enabled);
}

/** One loop per database connection; `kick` drains now (if on), the timer drains now and then. */
export class AutoSync {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private again = false;

  constructor(
    private readonly db: Db,
    private readonly onChange: DrainOptions['onChange'],
  ) {}

  start(): void {
    if (this.timer || !autoSyncEnabled(this.db)) return;
    this.timer = setInterval(() => this.kick(), TICK_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Drains unless auto sync is off, or a key is missing (nothing goes out before sign-in). */
  kick(): void {
    if (!autoSyncEnabled(this.db)) return this.stop();
    const client = new PlatformClient();
    if (!client.resolvedKey()) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = drainOutbox(this.db, client, { onChange: this.onChange })
      .catch(() => undefined) // an item's failure is recorded on the item; a failed drain is tried on the next tick
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Waits for a drain in progress (engine close). */
  async settle(): Promise<void> {
    this.stop();
    await this.running;
  }
}
