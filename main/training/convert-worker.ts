// A conversion thread of a training export. It starts with the export, before the selection is planned (loading
// this script and opening the database take a tenth of a second the engine thread spends planning), then takes
// pages from the shared claims (page-claims.ts) until none is left: reads each on a read-only connection of its own,
// converts it and hands back its bytes (moved, not copied) and counts. The engine thread writes the pages in order.
import { parentPort, workerData } from 'node:worker_threads';
import { GroupFieldsMap, type ExportSettings, type GroupFields } from '../../shared/training/index';
import { sqliteDatabase } from '../db/sqlite';
import { convertPage, pageStatements, type ConvertedPage } from './convert-page';
import { PageClaims } from './page-claims';
import './native-digest';

export interface ConvertStart {
  dbPath: string;
  nativeBinding?: string;
}

export interface ConvertJob {
  datasetId: string;
  settings: ExportSettings;
  groups: Array<[string, GroupFields]> | null;
  /** Every planned ordinal, in export order; page p is rows [p * pageRows, (p + 1) * pageRows). */
  ordinals: Float64Array;
  pageRows: number;
  claims: SharedArrayBuffer;
  /** Whether to send the bytes (false for a preview: counts and the first page's samples only). */
  text: boolean;
}

export type ConvertMessage = ({ type: 'page' } & ConvertedPage) | { type: 'error'; name: string; message: string };

function run(start: ConvertStart): void {
  const port = parentPort;
  if (!port) return;
  const Sqlite = sqliteDatabase();
  const db = new Sqlite(start.dbPath, { readonly: true, fileMustExist: true, ...(start.nativeBinding ? { nativeBinding: start.nativeBinding } : {}) });
  db.pragma('cache_size = -2048');
  const stmt = pageStatements(db);
  port.once('message', (job: ConvertJob) => {
    const claims = new PageClaims(job.claims);
    const groups = job.groups ? new GroupFieldsMap(new Map(job.groups)) : null;
    try {
      for (;;) {
        const page = claims.claim();
        if (page === null) break;
        if (page === 'later') {
          claims.awaitWriter();
          continue;
        }
        const ordinals = job.ordinals.subarray(page * job.pageRows, (page + 1) * job.pageRows);
        const converted = convertPage(stmt, job.datasetId, { seq: page, ordinals }, job.settings, groups, job.text);
        port.postMessage({ type: 'page', ...converted } satisfies ConvertMessage, converted.bytes ? [converted.bytes.buffer as ArrayBuffer] : []);
      }
    } catch (error) {
      const err = error as Error;
      port.postMessage({ type: 'error', name: err.name, message: err.message } satisfies ConvertMessage);
    } finally {
      db.close();
      port.close();
    }
  });
}

run(workerData as ConvertStart);
