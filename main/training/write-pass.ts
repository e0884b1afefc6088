// The second pass of a training export: the planned rows, read in export order 200 at a time, converted (on the
// export threads too, when there are: export-pool.ts) and written in page order to a partial file renamed over the
// target once complete (partial-file.ts). The pages' counts are merged in the same order, so the file and the report
// are the same however the pages were shared out. Without a file (a preview) the rows are converted and counted and
// only the first three written out as samples.
import { TrainingExporter, TrainingValueError, type ExportReport, type ExportSettings, type GroupTally } from '../../shared/training/index';
import type { Db } from '../db/connection';
import { convertPage, pageStatements, type ConvertedPage } from './convert-page';
import type { ExportPool } from './export-pool';
import { PartialFile } from './partial-file';
import type { PassHooks } from './selection-pass';

// Small pages: what a page holds (its rows' JSON, its lines) then dies young instead of being promoted and collected
// by the old generation (a third of the time went to the collector with 1000 rows).
export const PAGE = 200;
const SAMPLES = 3;

export interface WriteResult {
  report: ExportReport;
  samples: string[];
  bytes: number;
}

export interface WritePlan {
  ordinals: readonly number[];
  tally: GroupTally | null;
}

export async function writeRows(reader: Db, datasetId: string, plan: WritePlan, settings: ExportSettings, target: string | null, hooks: PassHooks, pool: ExportPool | null): Promise<WriteResult> {
  const ordinals = Float64Array.from(plan.ordinals);
  const statements = pageStatements(reader);
  const text = target !== null;
  const merged = new TrainingExporter(settings, null);
  const file = target ? new PartialFile(target) : null;
  const samples: string[] = [];
  let done = 0;
  const pages = Math.ceil(ordinals.length / PAGE);
  const here = (seq: number) => convertPage(statements, datasetId, { seq, ordinals: ordinals.subarray(seq * PAGE, (seq + 1) * PAGE) }, settings, plan.tally, text);
  const take = async (seq: number, page: ConvertedPage) => {
    for (const line of page.samples) if (samples.length < SAMPLES) samples.push(line);
    merged.merge(page.state);
    if (file && page.bytes) await file.write(page.bytes);
    done += Math.min(PAGE, ordinals.length - seq * PAGE);
    hooks.onRows?.(done);
    await hooks.between?.();
  };
  try {
    if (pool) {
      const groups = plan.tally ? [...plan.tally.allFields()] : null;
      await pool.inPageOrder<ConvertedPage>({ kind: 'convert', datasetId, ordinals, pageRows: PAGE, settings, groups, text }, pages, here, take);
    } else for (let seq = 0; seq < pages; seq++) await take(seq, here(seq));
    if (file) await file.finish();
  } catch (error) {
    await file?.discard();
    // A gate's refusal in a thread is the SDK's ValueError, as it would be here.
    if (error instanceof Error && error.name === 'ValueError') throw new TrainingValueError(error.message);
    throw error;
  }
  const report = merged.report();
  if (target) {
    report.path = target;
    report.n_written = merged.written;
  }
  return { report, samples, bytes: file?.bytes ?? 0 };
}
