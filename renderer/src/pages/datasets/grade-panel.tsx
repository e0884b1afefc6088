// Grade this dataset with a judge into a new graded dataset: the same grade.start / grade.progress / grade.wait
// the CLI uses. The judge fields are the new-run form's (a file picked with the native dialog in the desktop app;
// a typed path on the engine's machine in a browser, which has no file paths).
import { useEffect, useState } from 'react';
import type { GradeProgress, GradeSummary } from '../../../../shared/api/grade';
import { desk, errorText } from '../../api/desk';
import { formatCount } from '../../components/format';
import { ProgressBar } from '../../components/progress-bar';
import { hrefFor } from '../../store/route-store';
import { defaultJudge, JudgeFields, judgeSettingsOf, type JudgeChoice } from '../runs/judge-fields';

type Phase = { phase: 'idle' } | { phase: 'grading'; gradeId: string; progress: GradeProgress | null } | { phase: 'done'; summary: GradeSummary } | { phase: 'failed'; message: string };

function countsText(counts: GradeSummary['judge_status_counts']): string {
  return Object.entries(counts)
    .filter(([status, n]) => status !== 'ok' && n > 0)
    .map(([status, n]) => `${formatCount(n)} ${status}`)
    .join(', ');
}

function Summary({ summary }: { summary: GradeSummary }) {
  const unscored = summary.rows - summary.graded;
  return (
    <p className={summary.all_failed ? 'error-text' : undefined} role={summary.all_failed ? 'alert' : 'status'} data-testid="grade-summary">
      {summary.all_failed
        ? `The judge scored none of the ${formatCount(summary.rows)} rows: ${countsText(summary.judge_status_counts)}.`
        : `Graded ${formatCount(summary.rows)} rows: mean reward ${summary.mean_reward ?? 'n/a'} over ${formatCount(summary.graded)} scored` +
          (unscored ? `; ${formatCount(unscored)} without a reward (${countsText(summary.judge_status_counts)})` : '') +
          '.'}{' '}
      <a href={hrefFor({ page: 'dataset', id: summary.dataset_id })}>Open the graded dataset</a>
      {summary.first_problem && <span className="muted"> First problem: {summary.first_problem}</span>}
    </p>
  );
}

export function GradePanel({ datasetId }: { datasetId: string }) {
  const [open, setOpen] = useState(false);
  const [judge, setJudge] = useState<JudgeChoice>(defaultJudge);
  const [state, setState] = useState<Phase>({ phase: 'idle' });
  const gradeId = state.phase === 'grading' ? state.gradeId : null;

  useEffect(() => {
    if (!gradeId) return;
    let live = true;
    const off = desk.on('grade.progress', (progress) => live && progress.grade_id === gradeId && setState({ phase: 'grading', gradeId, progress }));
    desk.call('grade.wait', { grade_id: gradeId }).then(
      (summary) => live && setState({ phase: 'done', summary }),
      (failure: unknown) => live && setState({ phase: 'failed', message: errorText(failure) }),
    );
    return () => {
      live = false;
      off();
    };
  }, [gradeId]);

  const start = async () => {
    const chosen = judgeSettingsOf(judge);
    if ('problem' in chosen) return setState({ phase: 'failed', message: chosen.problem });
    if (!chosen.settings) return setState({ phase: 'failed', message: 'choose a judge file (.mjs or .json), or an LLM judge' });
    try {
      const started = await desk.call('grade.start', { dataset_id: datasetId, judge: chosen.settings });
      setState({ phase: 'grading', gradeId: started.grade_id, progress: null });
    } catch (failure) {
      setState({ phase: 'failed', message: errorText(failure) });
    }
  };

  if (!open) {
    return (
      <button type="button" onClick={() => setOpen(true)}>
        Grade…
      </button>
    );
  }
  const progress = state.phase === 'grading' ? state.progress : null;
  return (
    <section className="grade-panel" aria-label="Grade">
      <div className="form">
        <JudgeFields value={judge} onChange={setJudge} />
      </div>
      <div className="row-between">
        {state.phase === 'grading' ? (
          <button type="button" onClick={() => void desk.call('grade.cancel', { grade_id: state.gradeId })}>
            Cancel grading
          </button>
        ) : (
          <button type="button" className="primary" onClick={() => void start()}>
            Grade into a new dataset
          </button>
        )}
        <button type="button" onClick={() => setOpen(false)} disabled={state.phase === 'grading'}>
          Close
        </button>
      </div>
      {state.phase === 'grading' && (
        <div aria-live="polite">
          <span>{progress ? `${formatCount(progress.done)} of ${formatCount(progress.total)} rows graded` : 'Loading the judge…'}</span>
          <ProgressBar value={progress && progress.total ? progress.done / progress.total : 0} label="Grading progress" />
        </div>
      )}
      {state.phase === 'done' && <Summary summary={state.summary} />}
      {state.phase === 'failed' && (
        <p className="error-text" role="alert">
          {state.message}
        </p>
      )}
    </section>
  );
}
