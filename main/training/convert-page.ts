// One page of a training export converted: its rows read by ordinal, each turned into its exported rows, their
// lines and the page's counts. The conversion thread and the engine thread each convert their share of the pages.
import { parsePyJson, pyDumps } from '../../shared/schema/py-json';
import { TrainingExporter, type ExporterState, type ExportSettings, type GroupLookup } from '../../shared/training/index';
import type { Db } from '../db/connection';

type Obj = Record<string, unknown>;
type Statement = { all(...params: unknown[]): unknown[] };

const SAMPLES = 3;

export interface ConvertedPage {
  seq: number;
  text: string;
  samples: string[];
  state: ExporterState;
}

/** The statement a converter reads its pages with. */
export function pageStatement(db: Db): Statement {
  return db.prepare('SELECT ordinal, row_json FROM rows WHERE dataset_id = ? AND ordinal IN (SELECT value FROM json_each(?))').raw();
}

export function convertPage(stmt: Statement, datasetId: string, page: { seq: number; ordinals: number[] }, settings: ExportSettings, groups: GroupLookup | null, withText: boolean): ConvertedPage {
  const exporter = new TrainingExporter(settings, groups);
  const byOrdinal = new Map<number, string>();
  for (const [ordinal, json] of stmt.all(datasetId, JSON.stringify(page.ordinals)) as Array<[number, string]>) byOrdinal.set(ordinal, json);
  let text = '';
  const samples: string[] = [];
  for (const ordinal of page.ordinals) {
    for (const row of exporter.add(parsePyJson(byOrdinal.get(ordinal) as string) as Obj)) {
      if (!withText && (page.seq !== 0 || samples.length >= SAMPLES)) continue;
      const line = pyDumps(row) + '\n';
      if (page.seq === 0 && samples.length < SAMPLES) samples.push(line);
      if (withText) text += line;
    }
  }
  return { seq: page.seq, text, samples, state: exporter.state() };
}
