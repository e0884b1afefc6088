// A run's rows: each rollout lands at its fixed slot ordinal, never twice (appendRows with skipFilled), and the
// run's loss counts are updated in the same transaction as the rows they account for. The rows that land are also
// folded for the folds a run keeps (run-folds.ts), when the run asks for that.
import type { RolloutsLost } from '../../shared/api/runs';
import type { Db } from '../db/connection';
import { setRunLost } from '../db/repos/runs';
import { appendRows } from './append';
import type { StoredRow } from './columns';
import type { RunFolds } from './run-folds';

export interface RowCommitter {
  /** Queues a finished rollout; it is committed before the event loop moves on (see flush). */
  add(row: StoredRow, lost: RolloutsLost | null, onLanded: () => void): void;
  /** Commits what is queued now, in one transaction. */
  flush(): void;
}

interface Queued {
  row: StoredRow;
  lost: RolloutsLost | null;
  onLanded: () => void;
}

/**
 * Commits finished rollouts, each at its fixed slot ordinal, with the run's loss counts as they stand after it.
 * Rollouts that finish in the same turn of the event loop share one transaction (flushed by setImmediate):
 * at 32 requests in flight that is several rows per commit instead of one, and kill -9 can still only lose
 * rollouts that were in flight or finished within that same turn. A filled slot is never written twice.
 */
export function rowCommitter(db: Db, runId: string, folds: RunFolds | null = null): RowCommitter {
  let queue: Queued[] = [];
  let scheduled = false;
  const commitAll = db.transaction((items: Queued[]) => {
    const { landed } = appendRows(db, runId, items.map((item) => item.row), { skipFilled: true });
    let lost: RolloutsLost | null = null;
    for (const i of landed) lost = items[i].lost ?? lost;
    if (lost) setRunLost(db, runId, lost);
    return landed.map((i) => items[i]);
  });
  const flush = () => {
    scheduled = false;
    if (queue.length === 0) return;
    const items = queue;
    queue = [];
    const landed = commitAll(items);
    folds?.landed(landed.map((item) => item.row)); // once committed: the fold holds only stored rows
    for (const item of landed) item.onLanded();
  };
  return {
    add(row, lost, onLanded) {
      queue.push({ row, lost, onLanded });
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    flush,
  };
}
