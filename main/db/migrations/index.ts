// Migrations in the order they apply. Never edit one that has shipped: add the next file instead.
import { sql as initial } from './0001-initial';
import { sql as runs } from './0002-runs';
import { sql as settings } from './0003-settings';
import { sql as labelsAndVersions } from './0004-labels-and-versions';
import { sql as syncOutbox } from './0005-sync-outbox';
import { sql as sweeps } from './0006-sweeps';
import { sql as runLost } from './0007-run-lost';
import { sql as queueOutline } from './0008-queue-outline';
import { sql as keptFolds } from './0009-kept-folds';
import { sql as runTasks } from './0010-run-tasks';
import { sql as outboxStreak } from './0011-outbox-streak';
import { sql as markerFlags } from './0012-marker-flags';
import { sql as pairLabels } from './0013-pair-labels';

export interface Migration {
  id: number;
  name: string;
  sql: string;
}

export const migrations: Migration[] = [
  { id: 1, name: '0001-initial', sql: initial },
  { id: 2, name: '0002-runs', sql: runs },
  { id: 3, name: '0003-settings', sql: settings },
  { id: 4, name: '0004-labels-and-versions', sql: labelsAndVersions },
  { id: 5, name: '0005-sync-outbox', sql: syncOutbox },
  { id: 6, name: '0006-sweeps', sql: sweeps },
  { id: 7, name: '0007-run-lost', sql: runLost },
  { id: 8, name: '0008-queue-outline', sql: queueOutline },
  { id: 9, name: '0009-kept-folds', sql: keptFolds },
  { id: 10, name: '0010-run-tasks', sql: runTasks },
  { id: 11, name: '0011-outbox-streak', sql: outboxStreak },
  { id: 12, name: '0012-marker-flags', sql: markerFlags },
  { id: 13, name: '0013-pair-labels', sql: pairLabels },
];
