// Writing the file: in the desktop app to the path the native save dialog gives (the engine writes it atomically);
// in a browser the engine writes a temporary file that `serve` hands over once as a download.
import type { TrainingSettingsInput } from '../../../../shared/api/training';
import { canPickSavePath, downloadLink, pickSavePath, safeFileStem } from '../../api/files';
import { desk, downloadHref } from '../../api/desk';

export function suggestedName(datasetName: string, kind: 'train' | 'trl' | 'dpo'): string {
  return `${safeFileStem(datasetName, 100)}.${kind}.jsonl`;
}

/** Exports; returns what happened in words, or null when the person cancelled the dialog. */
export async function runTrainingExport(datasetId: string, datasetName: string, settings: TrainingSettingsInput, jobId: string): Promise<string | null> {
  if (canPickSavePath()) {
    const path = await pickSavePath(suggestedName(datasetName, settings.format === 'trl' ? 'trl' : 'train'));
    if (!path) return null;
    const done = await desk.call('training.export', { dataset_id: datasetId, settings, path, job_id: jobId });
    return `wrote ${done.counts.rows_written} rows to ${done.path}`;
  }
  const done = await desk.call('training.export', { dataset_id: datasetId, settings, download: true, job_id: jobId });
  const href = done.download_id ? downloadHref(done.download_id) : null;
  if (!href) throw new Error('this page has no download address; reload the URL `while-desk serve` printed');
  downloadLink(href, done.file_name);
  return `downloaded ${done.file_name} (${done.counts.rows_written} rows)`;
}

export async function runPreferenceExport(datasetId: string, datasetName: string, format: 'openai' | 'trl', systemPrompt: string | null, jobId: string): Promise<string | null> {
  if (canPickSavePath()) {
    const path = await pickSavePath(suggestedName(datasetName, 'dpo'));
    if (!path) return null;
    const done = await desk.call('training.exportPreference', { dataset_id: datasetId, format, system_prompt: systemPrompt, path, job_id: jobId });
    return `wrote ${done.report.pairs} preference pairs to ${done.path}`;
  }
  const done = await desk.call('training.exportPreference', { dataset_id: datasetId, format, system_prompt: systemPrompt, download: true, job_id: jobId });
  const href = done.download_id ? downloadHref(done.download_id) : null;
  if (!href) throw new Error('this page has no download address; reload the URL `while-desk serve` printed');
  downloadLink(href, done.file_name);
  return `downloaded ${done.file_name} (${done.report.pairs} pairs)`;
}
