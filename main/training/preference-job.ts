// A preference export of a dataset: build_preference_pairs on a first pass over light records (prompt key, score,
// reply length), the paired rows read back by ordinal, export_preference on the pairs, written atomically.
import { ApiError } from '../../shared/api/define';
import { parsePyJson, pyDumps } from '../../shared/schema/py-json';
import { choosePairs, exportPreferenceRows, pairCandidate, pairOf, pairsReport, TrainingValueError, type PairCandidate } from '../../shared/training/index';
import type { EngineContext } from '../engine/context';
import { findDataset } from '../db/repos/datasets';
import { rowPages } from '../rows/index';
import { publishDownload, reserveDownload } from './downloads';
import { checkCancelled, withJob } from './jobs';
import { runDefaults } from './run-defaults';
import { pageRows, pageStatements } from './convert-page';
import { PartialFile } from './partial-file';
import { withOwnReader } from './export-job';

type Obj = Record<string, unknown>;

export interface PreferenceRequest {
  datasetId: string;
  format: 'openai' | 'trl';
  systemPrompt: string | null;
  validate: boolean;
  jobId: string;
  destination: { path: string } | { download: true };
}

export function runPreferenceJob(ctx: EngineContext, request: PreferenceRequest) {
  const dataset = findDataset(ctx.db, request.datasetId);
  if (!dataset) throw new ApiError('not_found', `no dataset or run with id "${request.datasetId}" (see \`while-desk datasets\`)`, 'dataset_id');
  const defaults = runDefaults(ctx.db, request.datasetId);
  const system = request.systemPrompt ?? defaults.system_prompt ?? '';
  const tools = defaults.tools ?? [];
  return withJob(ctx, request.jobId, (signal) =>
    withOwnReader(ctx.db, async (reader) => {
      const candidates: PairCandidate[] = [];
      const ordinals: number[] = [];
      for (const page of rowPages(reader, request.datasetId, 1000)) {
        for (const stored of page) {
          const candidate = pairCandidate(parsePyJson(stored.json) as Obj, ordinals.length);
          ordinals.push(stored.ordinal);
          if (candidate) candidates.push(candidate);
        }
        ctx.emit('training.progress', { job_id: request.jobId, stage: 'reading', done: ordinals.length, total: dataset.rows });
        await new Promise((resolve) => setImmediate(resolve));
        checkCancelled(signal, request.jobId);
      }
      const chosen = choosePairs(candidates);
      const needed = [...new Set(chosen.pairs.flatMap((p) => [ordinals[p.chosen.index], ordinals[p.rejected.index]]))];
      const byOrdinal = new Map<number, Obj>();
      const statements = pageStatements(reader);
      for (let at = 0; at < needed.length; at += 1000) {
        const some = needed.slice(at, at + 1000);
        pageRows(statements, request.datasetId, some).forEach((json, i) => byOrdinal.set(some[i], parsePyJson(json) as Obj));
      }
      const pairs = chosen.pairs.map((p) => pairOf(byOrdinal.get(ordinals[p.chosen.index]) as Obj, byOrdinal.get(ordinals[p.rejected.index]) as Obj, p));
      const pairsRep = pairsReport(pairs, chosen.promptsSeen, chosen.withContrast, 1.0);
      let exported: { rows: Obj[]; report: Obj };
      try {
        exported = exportPreferenceRows(pairs, { format: request.format, system_prompt: system, tools, validate: request.validate });
      } catch (error) {
        if (error instanceof TrainingValueError) throw new ApiError('bad_input', `${error.message} Nothing was written.`, 'dataset_id', { pairs_report: pairsRep });
        throw error;
      }
      if (!exported.rows.length) throw new ApiError('bad_input', 'no preference pairs to write: nothing had a chosen and a rejected side; nothing was written.', 'dataset_id', { pairs_report: pairsRep });
      const download = 'download' in request.destination ? reserveDownload(ctx) : null;
      const target = 'path' in request.destination ? request.destination.path : (download as { file: string }).file;
      const file = new PartialFile(target);
      try {
        await file.write(Buffer.from(exported.rows.map((row) => pyDumps(row) + '\n').join(''), 'utf8'));
        checkCancelled(signal, request.jobId);
        await file.finish();
      } catch (error) {
        await file.discard();
        throw error;
      }
      const fileName = `${dataset.name.replace(/[^\w.-]+/g, '_').slice(0, 100) || 'dataset'}.dpo.jsonl`;
      const bytes = file.bytes;
      if (download) publishDownload(ctx, download.id, { file: download.file, name: fileName, bytes });
      const report = { ...exported.report, path: download ? null : target };
      return { job_id: request.jobId, report, pairs_report: pairsRep, path: download ? null : target, download_id: download?.id ?? null, file_name: fileName, bytes };
    }),
  );
}
