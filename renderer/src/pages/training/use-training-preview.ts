// The live counts: training.preview on the whole dataset each time the settings settle (a quarter second after the
// last change), the previous preview cancelled by reusing its job id, with its progress while it reads.
import { useEffect, useRef, useState } from 'react';
import type { TrainingResult, TrainingSettingsInput } from '../../../../shared/api/training';
import { desk, errorText } from '../../api/desk';

export interface PreviewState {
  result: TrainingResult | null;
  problem: string | null;
  running: boolean;
  progress: { stage: string; done: number; total: number } | null;
}

const SETTLE_MS = 250;

export function useTrainingPreview(datasetId: string, settings: TrainingSettingsInput | null, problem: string | null): PreviewState {
  const [state, setState] = useState<PreviewState>({ result: null, problem: null, running: false, progress: null });
  const jobId = useRef(`preview-${Math.random().toString(36).slice(2)}`);
  const key = JSON.stringify(settings);

  useEffect(() => {
    if (problem || !settings) {
      setState((s) => ({ ...s, problem, running: false }));
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      setState((s) => ({ ...s, running: true, progress: null }));
      desk.call('training.preview', { dataset_id: datasetId, settings, job_id: jobId.current }).then(
        (result) => live && setState({ result, problem: null, running: false, progress: null }),
        (failure: unknown) => {
          if (!live || (failure as { code?: string }).code === 'cancelled') return;
          setState((s) => ({ ...s, problem: errorText(failure), running: false, progress: null }));
        },
      );
    }, SETTLE_MS);
    const off = desk.on('training.progress', (event) => live && event.job_id === jobId.current && setState((s) => ({ ...s, progress: event })));
    return () => {
      live = false;
      clearTimeout(timer);
      off();
    };
    // key stands for settings (a new object each render)
  }, [datasetId, key, problem]);

  useEffect(() => () => void desk.call('training.cancel', { job_id: jobId.current }).catch(() => undefined), []);
  return state;
}
