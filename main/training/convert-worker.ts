// A conversion thread of a training export: reads its pages of the planned rows on a read-only connection of its
// own, converts each (TrainingExporter) and hands back the page's text and counts; the engine thread writes the pages
// in order and merges the counts. At most a few pages run ahead of the writer, so memory stays flat.
import { parentPort, workerData } from 'node:worker_threads';
import { GroupFieldsMap, type ExportSettings, type GroupFields } from '../../shared/training/index';
import { sqliteDatabase } from '../db/sqlite';
import { convertPage, pageStatement, type ConvertedPage } from './convert-page';
import './native-digest';

export interface ConvertJob {
  dbPath: string;
  nativeBinding?: string;
  datasetId: string;
  settings: ExportSettings;
  groups: Array<[string, GroupFields]> | null;
  /** This thread's pages: their sequence numbers and ordinals. */
  pages: Array<{ seq: number; ordinals: number[] }>;
  /** Whether to send the text (false for a preview: counts and the first page's samples only). */
  text: boolean;
  /** Pages a thread may have sent that the writer has not yet taken. */
  ahead: number;
}

export type ConvertMessage = ({ type: 'page' } & ConvertedPage) | { type: 'error'; name: string; message: string };

async function run(job: ConvertJob): Promise<void> {
  const port = parentPort;
  if (!port) return;
  let credit = job.ahead;
  let wake: (() => void) | null = null;
  port.on('message', (message: { type: 'ack' }) => {
    if (message.type !== 'ack') return;
    credit++;
    wake?.();
  });
  const Sqlite = sqliteDatabase();
  const db = new Sqlite(job.dbPath, { readonly: true, fileMustExist: true, ...(job.nativeBinding ? { nativeBinding: job.nativeBinding } : {}) });
  db.pragma('cache_size = -2048');
  const stmt = pageStatement(db);
  const groups = job.groups ? new GroupFieldsMap(new Map(job.groups)) : null;
  try {
    for (const page of job.pages) {
      while (credit <= 0) await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
      credit--;
      port.postMessage({ type: 'page', ...convertPage(stmt, job.datasetId, page, job.settings, groups, job.text) } satisfies ConvertMessage);
    }
  } catch (error) {
    const err = error as Error;
    port.postMessage({ type: 'error', name: err.name, message: err.message } satisfies ConvertMessage);
  } finally {
    db.close();
    port.close();
  }
}

void run(workerData as ConvertJob);
