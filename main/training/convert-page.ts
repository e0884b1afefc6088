// One page of a training export converted: its rows read by ordinal, each turned into its exported rows, their
// lines (encoded once, as the bytes the file gets) and the page's counts. The engine thread and the conversion
// threads each convert the pages they claim (page-claims.ts).
import { parsePyJson, pyDumps } from '../../shared/schema/py-json';
import { TrainingExporter, type ExporterState, type ExportSettings, type GroupLookup } from '../../shared/training/index';
import type { Db } from '../db/connection';

type Obj = Record<string, unknown>;
type Statement = { all(...params: unknown[]): unknown[] };

const SAMPLES = 3;

export interface ConvertedPage {
  seq: number;
  /** The page's lines as UTF-8; null for a preview (counts and samples only). */
  bytes: Uint8Array | null;
  /** The page's first three lines: the export's samples are the first three of the pages in order. */
  samples: string[];
  state: ExporterState;
}

export interface PageStatements {
  byOrdinals: Statement;
  byRange: Statement;
}

/** The statements a converter reads its pages with. */
export function pageStatements(db: Db): PageStatements {
  return {
    byOrdinals: db.prepare('SELECT ordinal, row_json FROM rows WHERE dataset_id = ? AND ordinal IN (SELECT value FROM json_each(?))').raw(),
    byRange: db.prepare('SELECT row_json FROM rows WHERE dataset_id = ? AND ordinal BETWEEN ? AND ? ORDER BY ordinal').pluck(),
  };
}

function consecutive(ordinals: ArrayLike<number>): boolean {
  for (let i = 1; i < ordinals.length; i++) if (ordinals[i] !== ordinals[0] + i) return false;
  return true;
}

/**
 * The page's rows' JSON in its order. A page of consecutive ordinals (every page of an export in stored order) is
 * one range of the index, read without the id list that json_each would unpack.
 */
export function pageRows(statements: PageStatements, datasetId: string, ordinals: ArrayLike<number>): string[] {
  if (!ordinals.length) return [];
  if (consecutive(ordinals)) return statements.byRange.all(datasetId, ordinals[0], ordinals[ordinals.length - 1]) as string[];
  const byOrdinal = new Map<number, string>();
  for (const [ordinal, json] of statements.byOrdinals.all(datasetId, JSON.stringify(Array.from(ordinals))) as Array<[number, string]>) byOrdinal.set(ordinal, json);
  return Array.from(ordinals, (ordinal) => byOrdinal.get(ordinal) as string);
}

export function convertPage(statements: PageStatements, datasetId: string, page: { seq: number; ordinals: ArrayLike<number> }, settings: ExportSettings, groups: GroupLookup | null, withText: boolean): ConvertedPage {
  const exporter = new TrainingExporter(settings, groups);
  let text = '';
  const samples: string[] = [];
  for (const json of pageRows(statements, datasetId, page.ordinals)) {
    for (const row of exporter.add(parsePyJson(json) as Obj)) {
      if (!withText && samples.length >= SAMPLES) continue; // a preview converts and counts, writes three
      const line = pyDumps(row) + '\n';
      if (samples.length < SAMPLES) samples.push(line);
      if (withText) text += line;
    }
  }
  return { seq: page.seq, bytes: withText ? Buffer.from(text, 'utf8') : null, samples, state: exporter.state() };
}
