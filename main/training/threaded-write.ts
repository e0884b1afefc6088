// writeRows with the conversion shared between this thread and the conversion threads (convert-pool.ts): each
// converter claims the next page (page-claims.ts), and this thread writes the pages and merges their counts in
// page order, so the file and the report are the ones a single thread makes. This thread converts a page whenever
// the next one to write is not ready yet.
import { TrainingExporter, TrainingValueError, type ExportSettings } from '../../shared/training/index';
import type { Db } from '../db/connection';
import type { ConvertPool } from './convert-pool';
import { convertPage, pageStatements, type ConvertedPage } from './convert-page';
import { PageClaims } from './page-claims';
import { PartialFile } from './partial-file';
import type { PassHooks } from './selection-pass';
import { finalReport, PAGE, type WritePlan, type WriteResult } from './write-pass';

export async function writeRowsThreaded(pool: ConvertPool, reader: Db, datasetId: string, plan: WritePlan, settings: ExportSettings, target: string | null, hooks: PassHooks): Promise<WriteResult> {
  const pages = Math.ceil(plan.ordinals.length / PAGE);
  const claims = new PageClaims(pages);
  const ordinals = Float64Array.from(plan.ordinals);
  const ready = new Map<number, ConvertedPage>();
  let broken: Error | null = null;
  let wake: (() => void) | null = null;
  let next = 0;
  pool.run(
    { datasetId, settings, tally: plan.tally, ordinals, pageRows: PAGE, claims: claims.shared, text: target !== null },
    {
      page(page) {
        ready.set(page.seq, page);
        wake?.();
      },
      failed(error) {
        broken ??= error;
        wake?.();
      },
    },
  );
  const statements = pageStatements(reader);
  const convert = (seq: number) => ready.set(seq, convertPage(statements, datasetId, { seq, ordinals: ordinals.subarray(seq * PAGE, (seq + 1) * PAGE) }, settings, plan.tally, target !== null));
  const merged = new TrainingExporter(settings, null);
  const file = target ? new PartialFile(target) : null;
  let samples: string[] = [];
  let done = 0;
  try {
    while (next < pages) {
      if (broken) throw broken;
      const page = ready.get(next);
      if (!page) {
        const claimed = claims.claim();
        if (typeof claimed === 'number') convert(claimed); // the next page, or a later one while a thread has the next
        else {
          await new Promise<void>((resolve) => (wake = resolve));
          wake = null;
        }
        continue;
      }
      ready.delete(next);
      if (next === 0) samples = page.samples;
      merged.merge(page.state);
      if (file && page.bytes) await file.write(page.bytes);
      done += Math.min(PAGE, plan.ordinals.length - next * PAGE);
      next++;
      claims.written(next);
      hooks.onRows?.(done);
      await hooks.between?.();
    }
    if (file) await file.finish();
  } catch (error) {
    claims.stop();
    await file?.discard();
    // A gate's refusal in a thread is the SDK's ValueError, as it would be here.
    if (error instanceof Error && error.name === 'ValueError') throw new TrainingValueError(error.message);
    throw error;
  }
  return { report: finalReport(merged, target), samples, bytes: file?.bytes ?? 0 };
}
