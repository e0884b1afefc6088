// export_dataset on rows in memory (conformance, tests, previews): the first pass over task keys and rewards, then
// the exporter. Returns the file's rows and text as well as the report; the text is what the SDK's write_jsonl
// writes (json.dumps(row, default=str) per line).
import { pyDumps } from '../schema/py-json';
import { exportSettings, type ExportSettings } from './export-settings';
import { TrainingExporter, type ExportReport } from './exporter';
import { GroupTally } from './groups';
import { entryTaskKey } from './training-row';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Number);

/** The group tally of the rows an export will write (null with unroll, which stamps no groups). */
export function groupTallyOf(rows: Iterable<Obj>, settings: Pick<ExportSettings, 'unroll'>): GroupTally | null {
  if (settings.unroll) return null;
  const tally = new GroupTally();
  for (const row of rows) tally.add(entryTaskKey(row), row.reward);
  return tally;
}

/** One exported row as a line of the file. */
export function trainingLine(row: Obj): string {
  return pyDumps(row) + '\n';
}

export interface ExportResult {
  rows: Obj[];
  report: ExportReport;
}

export function exportDatasetRows(rows: readonly unknown[], input: Partial<ExportSettings> = {}): ExportResult {
  const settings = exportSettings(input);
  const source = rows.filter(isObj);
  const exporter = new TrainingExporter(settings, groupTallyOf(source, settings));
  const out: Obj[] = [];
  for (const row of source) out.push(...exporter.add(row));
  const report = exporter.report();
  return { rows: out, report };
}
