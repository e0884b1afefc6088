// The second pass of a training export: the planned rows, read in export order and written as they convert, to a
// partial file renamed over the target once complete (partial-file.ts). Without a file (a preview) the rows are
// converted and counted and only the first three written out as samples. This is the writer on the engine thread
// alone; threaded-write.ts shares the pages with conversion threads.
import { parsePyJson, pyDumps } from '../../shared/schema/py-json';
import { TrainingExporter, type ExportReport, type ExportSettings, type GroupTally } from '../../shared/training/index';
import type { Db } from '../db/connection';
import { pageRows, pageStatements } from './convert-page';
import { PartialFile } from './partial-file';
import type { PassHooks } from './selection-pass';

type Obj = Record<string, unknown>;

// Small pages and flushes: what a page holds (its rows' JSON, the lines not yet written) then dies young instead of
// being promoted and collected by the old generation (a third of the time went to the collector with 1000 rows).
export const PAGE = 200;
const FLUSH_CHARS = 128 << 10;
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

/** The planned rows' JSON, page by page, in the plan's order. */
function* plannedPages(reader: Db, datasetId: string, ordinals: readonly number[]): Generator<string[]> {
  const statements = pageStatements(reader);
  for (let at = 0; at < ordinals.length; at += PAGE) yield pageRows(statements, datasetId, ordinals.slice(at, at + PAGE));
}

/** The report of a finished export: where the file went and how many rows it holds. */
export function finalReport(exporter: TrainingExporter, target: string | null): ExportReport {
  const report = exporter.report();
  if (target) {
    report.path = target;
    report.n_written = exporter.written;
  }
  return report;
}

export async function writeRows(reader: Db, datasetId: string, plan: WritePlan, settings: ExportSettings, target: string | null, hooks: PassHooks): Promise<WriteResult> {
  const exporter = new TrainingExporter(settings, plan.tally);
  const samples: string[] = [];
  let done = 0;
  const file = target ? new PartialFile(target) : null;
  try {
    let buffer = '';
    for (const page of plannedPages(reader, datasetId, plan.ordinals)) {
      for (const json of page) {
        for (const row of exporter.add(parsePyJson(json) as Obj)) {
          if (!file && samples.length >= SAMPLES) continue; // a preview converts and counts, writes nothing more
          const line = pyDumps(row) + '\n';
          if (samples.length < SAMPLES) samples.push(line);
          if (file) buffer += line;
        }
      }
      done += page.length;
      if (file && buffer.length > FLUSH_CHARS) {
        await file.write(Buffer.from(buffer, 'utf8'));
        buffer = '';
      }
      hooks.onRows?.(done);
      await hooks.between?.();
    }
    if (file) {
      await file.write(Buffer.from(buffer, 'utf8'));
      await file.finish();
    }
  } catch (error) {
    await file?.discard();
    throw error;
  }
  return { report: finalReport(exporter, target), samples, bytes: file?.bytes ?? 0 };
}
