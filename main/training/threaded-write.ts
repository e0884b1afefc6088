// writeRows with the conversion shared between this thread and the export threads (export-pool.ts): the pages are
// written and their counts merged in page order, so the file and the report are the ones a single thread makes.
import { TrainingExporter, TrainingValueError, type ExportSettings } from '../../shared/training/index';
import type { Db } from '../db/connection';
import { convertPage, pageStatements, type ConvertedPage } from './convert-page';
import type { ExportPool } from './export-pool';
import { PartialFile } from './partial-file';
import type { PassHooks } from './selection-pass';
import { finalReport, PAGE, type WritePlan, type WriteResult } from './write-pass';

export async function writeRowsThreaded(pool: ExportPool, reader: Db, datasetId: string, plan: WritePlan, settings: ExportSettings, target: string | null, hooks: PassHooks): Promise<WriteResult> {
  const ordinals = Float64Array.from(plan.ordinals);
  const statements = pageStatements(reader);
  const text = target !== null;
  const merged = new TrainingExporter(settings, null);
  const file = target ? new PartialFile(target) : null;
  let samples: string[] = [];
  let done = 0;
  try {
    await pool.inPageOrder<ConvertedPage>(
      { kind: 'convert', datasetId, ordinals, pageRows: PAGE, settings, groups: plan.tally ? [...plan.tally.allFields()] : null, text },
      Math.ceil(ordinals.length / PAGE),
      (seq) => convertPage(statements, datasetId, { seq, ordinals: ordinals.subarray(seq * PAGE, (seq + 1) * PAGE) }, settings, plan.tally, text),
      async (seq, page) => {
        if (seq === 0) samples = page.samples;
        merged.merge(page.state);
        if (file && page.bytes) await file.write(page.bytes);
        done += Math.min(PAGE, ordinals.length - seq * PAGE);
        hooks.onRows?.(done);
        await hooks.between?.();
      },
    );
    if (file) await file.finish();
  } catch (error) {
    await file?.discard();
    // A gate's refusal in a thread is the SDK's ValueError, as it would be here.
    if (error instanceof Error && error.name === 'ValueError') throw new TrainingValueError(error.message);
    throw error;
  }
  return { report: finalReport(merged, target), samples, bytes: file?.bytes ?? 0 };
}
