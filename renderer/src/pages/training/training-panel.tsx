// "Export for training" on a dataset: choose the selection, the file's shape and mask, watch the counts of every
// stage follow the choices (training.preview over the whole dataset), read three rows as they will be written, then
// write the file (a native save dialog in the desktop app, a download in a browser) with progress and cancel.
import { useEffect, useMemo, useRef, useState } from 'react';
import type { DatasetSummary } from '../../../../shared/api/datasets';
import { desk, errorText } from '../../api/desk';
import { formatCount } from '../../components/format';
import { ProgressBar } from '../../components/progress-bar';
import { runPreferenceExport, runTrainingExport } from './run-export';
import { TrainingCounts, TrainingSamples } from './training-counts';
import { TrainingFormFields } from './training-form';
import { defaultForm, settingsOf, type TrainingForm } from './training-settings';
import { useTrainingPreview } from './use-training-preview';
import './training.css';

type Job = { kind: 'sft' | 'dpo'; jobId: string; done: number; total: number; stage: string } | null;

export function TrainingPanel({ dataset }: { dataset: DatasetSummary }) {
  const [form, setForm] = useState<TrainingForm>(defaultForm);
  const [datasets, setDatasets] = useState<DatasetSummary[]>([]);
  const [defaultPrompt, setDefaultPrompt] = useState<string | null>(null);
  const [job, setJob] = useState<Job>(null);
  const [note, setNote] = useState<{ text: string; error: boolean } | null>(null);
  const jobRef = useRef<string | null>(null);

  useEffect(() => {
    let live = true;
    desk.call('datasets.list', {}).then((all) => live && setDatasets(all.filter((d) => d.id !== dataset.id)), () => undefined);
    desk.call('training.defaults', { dataset_id: dataset.id }).then((d) => live && setDefaultPrompt(d.system_prompt), () => undefined);
    const off = desk.on('training.progress', (event) => {
      if (event.job_id === jobRef.current) setJob((j) => (j ? { ...j, done: event.done, total: event.total, stage: event.stage } : j));
    });
    return () => {
      live = false;
      off();
    };
  }, [dataset.id]);

  const chosen = useMemo(() => settingsOf(form), [form]);
  const settings = 'settings' in chosen ? chosen.settings : null;
  const preview = useTrainingPreview(dataset.id, settings, 'problem' in chosen ? chosen.problem : null);

  const start = async (kind: 'sft' | 'dpo') => {
    if (!settings) return;
    const jobId = `export-${Math.random().toString(36).slice(2)}`;
    jobRef.current = jobId;
    setJob({ kind, jobId, done: 0, total: dataset.rows, stage: 'reading' });
    setNote(null);
    try {
      const done = kind === 'sft' ? await runTrainingExport(dataset.id, dataset.name, settings, jobId) : await runPreferenceExport(dataset.id, dataset.name, form.format, form.systemPrompt, jobId);
      if (done) setNote({ text: done, error: false });
    } catch (failure) {
      const cancelled = (failure as { code?: string }).code === 'cancelled';
      setNote({ text: cancelled ? 'Cancelled: no file was written.' : errorText(failure), error: !cancelled });
    } finally {
      jobRef.current = null;
      setJob(null);
    }
  };
  const cancel = () => {
    if (job) void desk.call('training.cancel', { job_id: job.jobId });
  };

  const result = preview.result;
  return (
    <div className="training-panel" data-testid="training-panel">
      <TrainingFormFields form={form} onChange={setForm} datasets={datasets} defaultPrompt={defaultPrompt} />
      <section className="training-preview" aria-label="What the export writes">
        <div className="row-between">
          <h2>What the file will hold</h2>
          {preview.running && (
            <span className="muted" role="status" data-testid="train-preview-running">
              counting… {preview.progress ? `${formatCount(preview.progress.done)} of ${formatCount(preview.progress.total)} rows` : ''}
            </span>
          )}
        </div>
        {preview.problem && <p className="error-text" role="alert" data-testid="train-problem">{preview.problem}</p>}
        {result && !preview.problem && (
          <>
            <TrainingCounts result={result} />
            <TrainingSamples samples={result.samples} />
          </>
        )}
      </section>
      <div className="training-actions">
        <button type="button" onClick={() => void start('sft')} disabled={!settings || job !== null || (result?.counts.rows_kept ?? 1) === 0} data-testid="train-export">
          Export {form.format === 'trl' ? 'TRL' : 'OpenAI'} training file…
        </button>
        <button type="button" onClick={() => void start('dpo')} disabled={!settings || job !== null} data-testid="train-export-dpo">
          Export preference pairs…
        </button>
        {job && (
          <>
            <div className="training-progress">
              <ProgressBar value={job.total ? job.done / job.total : 0} label="Export progress" />
              <span className="muted" data-testid="train-progress">{job.stage} {formatCount(job.done)} of {formatCount(job.total)} rows</span>
            </div>
            <button type="button" onClick={cancel} data-testid="train-cancel">Cancel</button>
          </>
        )}
        {note && (
          <span className={note.error ? 'error-text' : 'muted'} role={note.error ? 'alert' : 'status'} data-testid="train-note">
            {note.text}
          </span>
        )}
      </div>
    </div>
  );
}
