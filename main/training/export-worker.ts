// An export thread of a training export. It starts with the export, before anything is read (loading this script
// and opening the database take a tenth of a second the engine thread spends meanwhile), then runs the jobs it is
// given, one after another: each takes pages from the job's shared claims (page-claims.ts) until none is left, and
// hands each page's result back; the engine thread takes them in page order. Two kinds of job: the selection pass's
// row facts (row-facts.ts), and the conversion to the exported lines (convert-page.ts), whose bytes are moved back,
// not copied.
import { parentPort, workerData } from 'node:worker_threads';
import { GroupFieldsMap, type ExportSettings, type GroupFields } from '../../shared/training/index';
import { sqliteDatabase } from '../db/sqlite';
import { convertPage, pageStatements, type ConvertedPage } from './convert-page';
import { PageClaims } from './page-claims';
import { factsPage, type FactsOptions, type RowFacts } from './row-facts';
import './native-digest';

export interface ExportThreadStart {
  dbPath: string;
  nativeBinding?: string;
}

interface PagedJob {
  datasetId: string;
  /** Every ordinal of the job, in its order; page p is [p * pageRows, (p + 1) * pageRows). */
  ordinals: Float64Array;
  pageRows: number;
  claims: SharedArrayBuffer;
}

export type ExportThreadJob =
  | (PagedJob & { kind: 'facts'; options: FactsOptions })
  | (PagedJob & {
      kind: 'convert';
      settings: ExportSettings;
      groups: Array<[string, GroupFields]> | null;
      /** Whether to send the bytes (false for a preview: counts and the first page's samples only). */
      text: boolean;
    });

export type PageResult = ConvertedPage | RowFacts[];

export type ExportThreadMessage = { type: 'page'; seq: number; result: PageResult } | { type: 'error'; name: string; message: string };

function run(start: ExportThreadStart): void {
  const port = parentPort;
  if (!port) return;
  const Sqlite = sqliteDatabase();
  const db = new Sqlite(start.dbPath, { readonly: true, fileMustExist: true, ...(start.nativeBinding ? { nativeBinding: start.nativeBinding } : {}) });
  db.pragma('cache_size = -2048');
  const statements = pageStatements(db);
  port.on('message', (job: ExportThreadJob) => {
    const claims = new PageClaims(job.claims);
    const groups = job.kind === 'convert' && job.groups ? new GroupFieldsMap(new Map(job.groups)) : null;
    try {
      for (;;) {
        const seq = claims.claim();
        if (seq === null) break;
        if (seq === 'later') {
          claims.awaitWriter();
          continue;
        }
        const ordinals = job.ordinals.subarray(seq * job.pageRows, (seq + 1) * job.pageRows);
        if (job.kind === 'facts') {
          const result = factsPage(statements, job.datasetId, ordinals, seq * job.pageRows, job.options);
          port.postMessage({ type: 'page', seq, result } satisfies ExportThreadMessage);
        } else {
          const result = convertPage(statements, job.datasetId, { seq, ordinals }, job.settings, groups, job.text);
          port.postMessage({ type: 'page', seq, result } satisfies ExportThreadMessage, result.bytes ? [result.bytes.buffer as ArrayBuffer] : []);
        }
      }
    } catch (error) {
      const err = error as Error;
      port.postMessage({ type: 'error', name: err.name, message: err.message } satisfies ExportThreadMessage);
    }
  });
}

run(workerData as ExportThreadStart);
