// The second pass of a training export: the planned rows, read in export order and written as they convert, to a
// temporary file beside the target that is renamed over it only once complete. A gate failure, a cancel or a disk
// error removes the temporary file, so the chosen name never holds a partial export. Without a file (a preview) the
// rows are converted and counted and only the first three written out as samples.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { parsePyJson, pyDumps } from '../../shared/schema/py-json';
import { TrainingExporter, TrainingValueError, type ExportReport, type ExportSettings, type GroupTally } from '../../shared/training/index';
import { openOptionsOf, type Db } from '../db/connection';
import { builtScriptIfPresent } from '../engine/package-root';
import { rowPages } from '../rows/index';
import { convertPage, pageStatement } from './convert-page';
import type { ConvertJob, ConvertMessage } from './convert-worker';
import type { PassHooks } from './selection-pass';

type Obj = Record<string, unknown>;

// Small pages and flushes: what a page holds (its rows' JSON, the lines not yet written) then dies young instead of
// being promoted and collected by the old generation (a third of the time went to the collector with 1000 rows).
const PAGE = 200;
const FLUSH_CHARS = 128 << 10;
// Room for a few flushes in the stream, so the disk writes while the next rows convert: at the default 16 KB every
// flush waited for its write to finish before converting on.
const STREAM_BYTES = 1 << 20;
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

/** Below this many rows the threads' start costs more than they save. */
const THREADS_FROM_ROWS = 4000;
const PAGES_AHEAD = 3;
// 16 MB: a page's parsed rows and text (200 rows) still die young, and with one conversion thread the process
// peaked at 288-310 MB where 32 MB gave 304-332 MB, at the same speed (100k bench rows, load 1.1-1.6).
const YOUNG_MB = Number(process.env.WHILE_DESK_EXPORT_YOUNG_MB ?? 16);
// Bounded, so a thread collects as it goes instead of growing the process: a page needs a few MB; the group fields the most.
const OLD_MB = Number(process.env.WHILE_DESK_EXPORT_OLD_MB ?? 128);

export interface ThreadPlan {
  dbPath: string;
  nativeBinding?: string;
  threads: number;
}

/**
 * The threads to convert with, or null to convert on this thread: the conversion thread is built (out/engine), the
 * export is large enough, the database is a file, and the machine has a core to spare for it.
 */
export function threadPlan(db: Db, rows: number): ThreadPlan | null {
  if (db.memory || rows < THREADS_FROM_ROWS) return null;
  if (!builtScriptIfPresent('convert-worker.cjs')) return null;
  // None by default: on this two-core machine, shared, a conversion thread beside the engine thread's own share
  // paid only while the other jobs were quiet (100k bench rows, test/bench/training-export.bench.mjs: 3.26 s against
  // 4.99 s at load 1.2; 5.18 s against 5.34 s at load 2.6-3.3), and put the process near 300 MB.
  // WHILE_DESK_EXPORT_THREADS=N converts on N threads as well as this one, for a machine with cores to spare.
  const wanted = Number(process.env.WHILE_DESK_EXPORT_THREADS ?? 0);
  if (!Number.isInteger(wanted) || wanted < 1) return null;
  const threads = Math.min(wanted, 8);
  return { dbPath: db.name, nativeBinding: openOptionsOf(db).nativeBinding, threads };
}

/**
 * writeRows with the conversion spread over threads: page k goes to thread k mod N, and the pages are written (and
 * their counts merged) here in their order, so the file and the report are the ones one thread would make. A thread
 * runs at most PAGES_AHEAD pages ahead of the writer.
 */
async function writeRowsThreaded(
  threads: ThreadPlan,
  reader: Db,
  datasetId: string,
  plan: { ordinals: readonly number[]; tally: GroupTally | null },
  settings: ExportSettings,
  target: string | null,
  hooks: PassHooks,
): Promise<WriteResult> {
  const pages: Array<{ seq: number; ordinals: number[] }> = [];
  for (let at = 0, seq = 0; at < plan.ordinals.length; at += PAGE, seq++) pages.push({ seq, ordinals: plan.ordinals.slice(at, at + PAGE) });
  const groups = plan.tally ? [...plan.tally.allFields()] : null;
  const script = builtScriptIfPresent('convert-worker.cjs') as string;
  const merged = new TrainingExporter(settings, null);
  const temp = target ? partialName(target) : null;
  const stream = temp ? fs.createWriteStream(temp, { encoding: 'utf8', mode: 0o644, highWaterMark: STREAM_BYTES }) : null;
  const failed = stream ? new Promise<never>((_, reject) => stream.once('error', reject)) : null;
  failed?.catch(() => undefined);
  const workers: Worker[] = [];
  let samples: string[] = [];
  let bytes = 0;
  let done = 0;
  try {
    const ready = new Map<number, Extract<ConvertMessage, { type: 'page' }>>();
    let next = 0;
    let wake: (() => void) | null = null;
    let broken: Error | null = null;
    // The engine thread converts a share too (lane `lanes - 1`), between writing the pages: it would only wait else.
    const lanes = threads.threads + 1;
    const ownLane = lanes - 1;
    const ownStatement = pageStatement(reader);
    const ownGroups = plan.tally;
    for (let w = 0; w < threads.threads && w < pages.length; w++) {
      const job: ConvertJob = { dbPath: threads.dbPath, nativeBinding: threads.nativeBinding, datasetId, settings, groups, pages: pages.filter((p) => p.seq % lanes === w), text: stream !== null, ahead: PAGES_AHEAD };
      // A young generation large enough that a page's parsed rows and its text die young instead of being promoted (YOUNG_MB).
      const worker = new Worker(script, { workerData: job, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_MB, maxOldGenerationSizeMb: OLD_MB } });
      worker.on('message', (message: ConvertMessage) => {
        if (message.type === 'page') ready.set(message.seq, message);
        else broken ??= Object.assign(new Error(message.message), { name: message.name });
        wake?.();
      });
      worker.on('error', (error) => {
        broken ??= error;
        wake?.();
      });
      worker.on('exit', (code) => {
        if (code !== 0) broken ??= new Error(`a conversion thread stopped (exit ${code})`);
        wake?.();
      });
      workers.push(worker);
    }
    while (next < pages.length) {
      if (next % lanes === ownLane && !ready.has(next)) ready.set(next, { type: 'page', ...convertPage(ownStatement, datasetId, pages[next], settings, ownGroups, stream !== null) });
      const page = ready.get(next);
      if (!page) {
        if (broken) throw broken;
        await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
        continue;
      }
      ready.delete(next);
      if (next % lanes !== ownLane) workers[next % lanes].postMessage({ type: 'ack' });
      if (next === 0) samples = page.samples;
      merged.merge(page.state);
      if (stream && page.text) {
        bytes += Buffer.byteLength(page.text);
        if (!stream.write(page.text)) await Promise.race([once(stream, 'drain'), failed]);
      }
      done += pages[next].ordinals.length;
      next++;
      hooks.onRows?.(done);
      await hooks.between?.();
    }
    if (stream && temp && target) {
      stream.end();
      await Promise.race([once(stream, 'finish'), failed]);
      await fs.promises.rename(temp, target);
    }
  } catch (error) {
    stream?.destroy();
    if (temp) await fs.promises.rm(temp, { force: true });
    // A gate's refusal in a thread is the SDK's ValueError, as it would be here.
    if (error instanceof Error && error.name === 'ValueError') throw new TrainingValueError(error.message);
    throw error;
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
  const report = merged.report();
  if (target) {
    report.path = target;
    report.n_written = merged.written;
  }
  return { report, samples, bytes };
}

export async function writeRows(
  reader: Db,
  datasetId: string,
  plan: { ordinals: readonly number[]; tally: GroupTally | null; storedOrder: boolean },
  settings: ExportSettings,
  target: string | null,
  hooks: PassHooks,
  threads: ThreadPlan | null = null,
): Promise<WriteResult> {
  if (threads) return writeRowsThreaded(threads, reader, datasetId, plan, settings, target, hooks);
  const exporter = new TrainingExporter(settings, plan.tally);
  const samples: string[] = [];
  let bytes = 0;
  let done = 0;
  const temp = target ? partialName(target) : null;
  const stream = temp ? fs.createWriteStream(temp, { encoding: 'utf8', mode: 0o644, highWaterMark: STREAM_BYTES }) : null;
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
        // Encoded once: Buffer.byteLength and then write(string) walked the text twice.
        const chunk = Buffer.from(buffer, 'utf8');
        bytes += chunk.length;
        buffer = '';
        if (!stream.write(chunk)) await Promise.race([once(stream, 'drain'), failed]);
      }
      hooks.onRows?.(done);
      await hooks.between?.();
    }
    if (stream && temp && target) {
      const chunk = Buffer.from(buffer, 'utf8');
      bytes += chunk.length;
      stream.end(chunk);
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
