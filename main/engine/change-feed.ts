// Publishes what writes changed (db/changes.ts) as events, after they committed: `rows.changed {dataset_id,
// version}` per dataset whose version moved, `datasets.changed {id}` when datasets were added, removed or changed
// status. A write handler (write.ts) publishes right after its transaction; writes that run on their own (an
// import, a run, a grade, each committing batch by batch) are published at most every PUBLISH_EVERY_MS, so a run
// committing every turn of the event loop sends a few events a second, each carrying the latest version.
import type { Db } from '../db/connection';
import { datasetVersion, takeChanges, watchChanges } from '../db/changes';
import type { EventName, EventPayload } from '../../shared/api/index';

const PUBLISH_EVERY_MS = 100;

export interface ChangeFeed {
  /** Publishes every change noted so far, now. */
  publish(): void;
  close(): void;
}

export function startChangeFeed(db: Db, emit: <E extends EventName>(event: E, payload: EventPayload<E>) => void): ChangeFeed {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const publish = () => {
    if (timer) {
      clearTimeout(timer);
      timer = null;
    }
    if (!db.open) return;
    const { rows, list } = takeChanges(db);
    for (const id of rows) {
      const version = datasetVersion(db, id);
      if (version !== undefined) emit('rows.changed', { dataset_id: id, version });
    }
    for (const id of list) emit('datasets.changed', { id });
  };
  watchChanges(db, () => {
    if (timer) return;
    timer = setTimeout(publish, PUBLISH_EVERY_MS);
    timer.unref?.();
  });
  return {
    publish,
    close() {
      publish();
      watchChanges(db, null);
    },
  };
}
