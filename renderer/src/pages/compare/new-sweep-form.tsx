// New sweep: a task file and a judge picked as the new-run form picks them (the native dialog in the desktop app,
// an upload and a typed path in a browser), the variants, k, noise runs; the label rules shown inline before starting.
import { useMemo, useState, type FormEvent } from 'react';
import { RUN_SETTING_HELP } from '../../../../shared/schema/run-settings';
import { desk, errorText } from '../../api/desk';
import { canPickPaths } from '../../api/files';
import { hrefFor, useRoute } from '../../store/route-store';
import { defaultJudge, JudgeFields, judgeSettingsOf } from '../runs/judge-fields';
import { TaskFileField } from '../runs/task-file-field';
import { checkVariantRows, defaultSweepNumbers, newVariantRow, type VariantRow } from './sweep-form-settings';
import { VariantEditor } from './variant-editor';

export function NewSweepForm() {
  const go = useRoute((s) => s.go);
  const pickPaths = canPickPaths();
  const [file, setFile] = useState<File | null>(null);
  const [tasksPath, setTasksPath] = useState('');
  const [rows, setRows] = useState<VariantRow[]>(() => [newVariantRow()]);
  const [judge, setJudge] = useState(defaultJudge);
  const [numbers, setNumbers] = useState(defaultSweepNumbers);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const checked = useMemo(() => checkVariantRows(rows), [rows]);
  const setNumber = (key: keyof typeof numbers) => (text: string) => setNumbers((n) => ({ ...n, [key]: Number(text) }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if ('problem' in checked) return setProblem(checked.problem);
    const judgeChoice = judgeSettingsOf(judge);
    if ('problem' in judgeChoice) return setProblem(judgeChoice.problem);
    if (!judgeChoice.settings) return setProblem('choose a judge: one judge grades every arm');
    if (!file && !tasksPath) return setProblem('choose a task file (JSONL, one task a line): every variant answers the same tasks');
    setBusy(true);
    setProblem(null);
    try {
      const started = await desk.call('sweeps.start', {
        ...(file ? { tasks_text: await file.text() } : { tasks_path: tasksPath }),
        variants: checked.variants,
        judge: judgeChoice.settings,
        k: numbers.k,
        noise_runs: numbers.noiseRuns,
        concurrency: numbers.concurrency,
        max_turns: numbers.maxTurns,
        name: name.trim() || (file ? `sweep ${file.name.replace(/\.jsonl$/i, '')} × ${checked.variants.length} variants × k=${numbers.k}` : undefined),
      });
      go(hrefFor({ section: 'compare', page: 'sweep', id: started.sweep_id }));
    } catch (error) {
      setProblem(errorText(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="new-sweep" onSubmit={submit} aria-label="New sweep" data-testid="new-sweep-form">
      <div className="form">
        <TaskFileField id="sweep-task-file" pickPaths={pickPaths} path={tasksPath} onPath={setTasksPath} onFile={setFile} />
        <JudgeFields value={judge} onChange={setJudge} />
      </div>
      <h2>Variants</h2>
      <VariantEditor rows={rows} onChange={setRows} />
      {'problem' in checked && (
        <p className="error-text" role="alert" data-testid="sweep-variants-problem">{checked.problem}</p>
      )}
      <div className="form">
        <label htmlFor="sweep-k">k (answers per task)</label>
        <input id="sweep-k" type="number" min={1} max={10000} value={numbers.k} onChange={(event) => setNumber('k')(event.target.value)} />
        <span className="hint muted">The same k in every arm.</span>
        <label htmlFor="sweep-noise-runs">Noise runs</label>
        <input id="sweep-noise-runs" type="number" min={1} max={100} value={numbers.noiseRuns} data-testid="sweep-noise-runs" onChange={(event) => setNumber('noiseRuns')(event.target.value)} />
        <span className="hint muted">Scorings of the first variant for the noise floor; 2 or more give one, 3 or more read better.</span>
        <label htmlFor="sweep-concurrency">Concurrency</label>
        <input id="sweep-concurrency" type="number" min={1} max={1024} value={numbers.concurrency} onChange={(event) => setNumber('concurrency')(event.target.value)} />
        <span className="hint muted">{RUN_SETTING_HELP.concurrency}</span>
        <label htmlFor="sweep-max-turns">Max turns</label>
        <input id="sweep-max-turns" type="number" min={1} max={200} value={numbers.maxTurns} onChange={(event) => setNumber('maxTurns')(event.target.value)} />
        <label htmlFor="sweep-name">Name</label>
        <input id="sweep-name" type="text" value={name} placeholder="the task file's name and the sweep's shape" onChange={(event) => setName(event.target.value)} />
        <span />
        <div>
          <button type="submit" className="primary" disabled={busy || 'problem' in checked} data-testid="start-sweep">{busy ? 'Starting…' : 'Start sweep'}</button>
        </div>
      </div>
      {problem && (
        <div className="import-outcome error" role="alert" data-testid="sweep-problem">
          <span>The sweep did not start: {problem}</span>
        </div>
      )}
    </form>
  );
}
