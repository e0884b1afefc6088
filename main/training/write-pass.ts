// The second pass of a training export: the planned rows, read in export order and written as they convert, to a
// temporary file beside the target that is renamed over it only once complete. A gate failure, a cancel or a disk
// error removes the temporary file, so the chosen name never holds a partial export. Without a file (a preview) the
// rows are converted and counted and only the first three written out as samples.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import { parsePyJson, pyDumps } from '../../shared/schema/py-json';
import { TrainingExporter, type ExportReport, type ExportSettings, type GroupTally } from '../../shared/training/index';
import type { Db } from '../db/connection';
import { rowPages } from '../rows/index';
import type { PassHooks } from './selection-pass';

type Obj = Record<string, unknown>;

const PAGE = 1000;
const FLUSH_CHARS = 1 << 20;
const SAMPLES = 3;

export interface WriteResult {
  report: ExportReport;
  samples: string[];
  bytes: number;
}

/** The planned rows' JSON, page by page, in the plan's order (stored order when it is every row in order). */
function* plannedPages(reader: Db, datasetId: string, ordinals: readonly number[], storedOrder: boolean): Generator<string[]> {
  if (storedOrder) {
    for (const page of rowPages(reader, datasetId, PAGE)) yield page.map((row) => row.json);
    return;
  }
  const stmt = reader.prepare('SELECT ordinal, row_json FROM rows WHERE dataset_id = ? AND ordinal IN (SELECT value FROM json_each(?))').raw();
  for (let at = 0; at < ordinals.length; at += PAGE) {
    const wanted = ordinals.slice(at, at + PAGE);
    const byOrdinal = new Map<number, string>();
    for (const [ordinal, json] of stmt.all(datasetId, JSON.stringify(wanted)) as Array<[number, string]>) byOrdinal.set(ordinal, json);
    yield wanted.map((o) => byOrdinal.get(o) as string);
  }
}

/** A temporary name beside `target` (same folder, so the rename is atomic). */
export function partialName(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(6).toString('hex')}.partial`);
}

export async function writeRows(
  reader: Db,
  datasetId: string,
  plan: { ordinals: readonly number[]; tally: GroupTally | null; storedOrder: boolean },
  settings: ExportSettings,
  target: string | null,
  hooks: PassHooks,
): Promise<WriteResult> {
  const exporter = new TrainingExporter(settings, plan.tally);
  const samples: string[] = [];
  let bytes = 0;
  let done = 0;
  const temp = target ? partialName(target) : null;
  const stream = temp ? fs.createWriteStream(temp, { encoding: 'utf8', mode: 0o644 }) : null;
  const failed = stream ? new Promise<never>((_, reject) => stream.once('error', reject)) : null;
  failed?.catch(() => undefined);
  try {
    let buffer = '';
    for (const page of plannedPages(reader, datasetId, plan.ordinals, plan.storedOrder)) {
      for (const json of page) {
        for (const row of exporter.add(parsePyJson(json) as Obj)) {
          if (!stream && samples.length >= SAMPLES) continue; // a preview converts and counts, writes nothing more
          const line = pyDumps(row) + '\n';
          if (samples.length < SAMPLES) samples.push(line);
          if (stream) buffer += line;
        }
      }
      done += page.length;
      if (stream && buffer.length > FLUSH_CHARS) {
        bytes += Buffer.byteLength(buffer);
        if (!stream.write(buffer)) await Promise.race([once(stream, 'drain'), failed]);
        buffer = '';
      }
      hooks.onRows?.(done);
      await hooks.between?.();
    }
    if (stream && temp && target) {
      bytes += Buffer.byteLength(buffer);
      stream.end(buffer);
      await Promise.race([once(stream, 'finish'), failed]);
      await fs.promises.rename(temp, target);
    }
  } catch (error) {
    stream?.destroy();
    if (temp) await fs.promises.rm(temp, { force: true });
    throw error;
  }
  const report = exporter.report();
  if (target) {
    report.path = target;
    report.n_written = exporter.written;
  }
  return { report, samples, bytes };
}
