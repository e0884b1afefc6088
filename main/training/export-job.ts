// One training preview or export, start to end: the settings resolved (the run's system prompt and tools when the
// settings leave them out), the eval datasets read, the selection planned, the rows written, and the stages counted.
// Runs on a read connection of its own (a steady snapshot; the writer stays free) and yields between pages, so the
// engine answers other calls, and training.cancel, while 100k rows go by.
import { ApiError } from '../../shared/api/define';
import type { TrainingCounts, TrainingResult, TrainingSettings, TrainingStage } from '../../shared/api/training';
import { exportSettings, TrainingValueError, type ExportSettings } from '../../shared/training/index';
import type { EngineContext } from '../engine/context';
import { findDataset } from '../db/repos/datasets';
import { openReader } from '../sync/reader';
import type { Db } from '../db/connection';
import { publishDownload, reserveDownload } from './downloads';
import { checkCancelled, withJob } from './jobs';
import { runDefaults } from './run-defaults';
import { evalProjection, planSelection } from './selection-pass';
import { ExportPool, THREADS_FROM_ROWS } from './export-pool';
import { writeRows } from './write-pass';

type Obj = Record<string, unknown>;

export interface JobRequest {
  datasetId: string;
  settings: TrainingSettings;
  jobId: string;
  /** null: a preview; a path; or "download". */
  destination: { path: string } | { download: true } | null;
}

function fileNameFor(name: string, settings: TrainingSettings): string {
  const base = name.replace(/[^\w.-]+/g, '_').slice(0, 100) || 'dataset';
  return `${base}.${settings.format === 'trl' ? 'trl' : 'train'}.jsonl`;
}

function requireKnown(ctx: EngineContext, id: string, what: string) {
  const found = findDataset(ctx.db, id);
  if (!found) throw new ApiError('not_found', `no dataset or run with id "${id}" (${what}; see \`while-desk datasets\`)`, what);
  return found;
}

/** The export's settings as the SDK's keyword arguments, with the run's system prompt and tools filled in. */
export function resolveSettings(ctx: EngineContext, datasetId: string, settings: TrainingSettings): { export: ExportSettings; from: TrainingResult['system_prompt_from'] } {
  const defaults = settings.system_prompt === null || settings.tools === null ? runDefaults(ctx.db, datasetId) : null;
  const system = settings.system_prompt ?? defaults?.system_prompt ?? '';
  const tools = settings.tools ?? defaults?.tools ?? [];
  const from = settings.system_prompt !== null ? 'settings' : defaults?.system_prompt ? 'run' : 'none';
  return {
    export: exportSettings({
      format: settings.format,
      mask_mode: settings.mask_mode,
      unroll: settings.unroll,
      max_tool_output_chars: settings.max_tool_output_chars,
      strip_think: settings.strip_think,
      system_prompt: system,
      tools,
      validate: settings.validate,
    }),
    from,
  };
}

function countsOf(plan: { rowsIn: number; ordinals: readonly number[]; contaminated: number; belowMinReward: number; droppedByRule: Record<string, number> }, report: Obj | null): TrainingCounts {
  const cut = Number(report?.tool_output_chars_cut ?? 0);
  return {
    rows_in: plan.rowsIn,
    rows_kept: plan.ordinals.length,
    contaminated: plan.contaminated,
    below_min_reward: plan.belowMinReward,
    dropped_by_rule: plan.droppedByRule,
    rows_written: Number(report?.n ?? 0),
    tool_output_truncated: Number(report?.tool_output_truncated ?? 0),
    tool_output_chars_cut: cut,
    tool_output_tokens_cut: Math.round(cut / 4),
  };
}

/** Runs `read` on a read connection of its own (an in-memory database: on itself), closed once it settles. */
export async function withOwnReader<T>(db: Db, read: (reader: Db) => Promise<T>): Promise<T> {
  if (db.memory) return read(db);
  const reader = openReader(db);
  try {
    return await read(reader);
  } finally {
    reader.close();
  }
}

export function runTrainingJob(ctx: EngineContext, request: JobRequest): Promise<TrainingResult> {
  const dataset = requireKnown(ctx, request.datasetId, 'dataset_id');
  for (const evalId of request.settings.decontaminate_against) {
    requireKnown(ctx, evalId, 'decontaminate_against');
    if (evalId === request.datasetId) throw new ApiError('bad_input', 'decontaminate_against names the dataset being exported; name the eval datasets to keep out of it', 'decontaminate_against');
  }
  const resolved = resolveSettings(ctx, request.datasetId, request.settings);
  const { jobId } = request;
  return withJob(ctx, jobId, async (signal) => {
    const progress = (stage: 'reading' | 'selecting' | 'writing', done: number, total: number) => ctx.emit('training.progress', { job_id: jobId, stage, done, total });
    const between = async () => {
      await new Promise((resolve) => setImmediate(resolve));
      checkCancelled(signal, jobId);
    };
    const total = dataset.rows;
    // Started now, so the threads load while the export begins; they read the rows' facts for a selection, and
    // convert the rows unless the plan keeps too few.
    let pool = ExportPool.start(ctx.db, total);
    try {
      return await withOwnReader(ctx.db, async (reader) => {
        const evalRows = request.settings.decontaminate_against.length ? request.settings.decontaminate_against.flatMap((id) => evalProjection(reader, id)) : null;
        progress('reading', 0, total);
        const plan = await planSelection(reader, request.datasetId, request.settings, evalRows, { onRows: (done) => progress('reading', done, total), between }, pool);
        progress('selecting', plan.ordinals.length, plan.ordinals.length);
        const stages: TrainingStage[] = [...plan.stages];
        if (!plan.ordinals.length && request.destination) {
          const where = stages.map((s) => `${s.stage} ${s.rows_in} -> ${s.rows_out}`).join(', ');
          throw new ApiError('bad_input', `the selection kept no rows (${where}); nothing was written. Loosen the selection (select "all", a lower min_reward) or export another dataset.`, 'settings.select', { stages });
        }
        const download = request.destination && 'download' in request.destination ? reserveDownload(ctx) : null;
        const target = request.destination ? ('path' in request.destination ? request.destination.path : (download as { file: string }).file) : null;
        if (pool && plan.ordinals.length < THREADS_FROM_ROWS) {
          await pool.close();
          pool = null;
        }
        const written = await writeRows(reader, request.datasetId, plan, resolved.export, target, { onRows: (done) => progress('writing', done, plan.ordinals.length), between }, pool);
        const report: Obj = { ...written.report };
        if (download) report.path = null;
        if (plan.selection) report.selection = plan.selection;
        if (plan.decontamination) report.decontaminate = plan.decontamination;
        stages.push({ stage: 'export', rows_in: plan.ordinals.length, rows_out: written.report.n, report: written.report as unknown as Obj });
        const fileName = fileNameFor(dataset.name, request.settings);
        if (download) publishDownload(ctx, download.id, { file: download.file, name: fileName, bytes: written.bytes });
        return {
          job_id: jobId,
          counts: countsOf(plan, written.report as unknown as Obj),
          stages,
          report,
          samples: written.samples,
          path: request.destination && 'path' in request.destination ? request.destination.path : null,
          download_id: download?.id ?? null,
          file_name: fileName,
          bytes: written.bytes,
          system_prompt_from: resolved.from,
        };
      });
    } catch (error) {
      if (error instanceof TrainingValueError) throw new ApiError('bad_input', `${error.message}${request.destination ? ' Nothing was written.' : ''}`, 'settings');
      throw error;
    } finally {
      await pool?.close();
    }
  });
}
