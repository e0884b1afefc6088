// New run: a task file, an agent, k, runs and a judge, as the settings objects `runs.start` takes; opens the run's progress.
// The desktop app picks files with its native dialog; a browser uploads the task file's text.
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../../../shared/api/define';
import { desk, errorText } from '../../api/desk';
import { hrefFor, useRoute } from '../../store/route-store';
import { RUN_DEFAULTS, RUN_SETTING_HELP } from '../../../../shared/schema/run-settings';
import { canPickPaths } from '../../api/files';
import { AgentFields, agentSettingsOf, defaultAgent } from './agent-fields';
import { defaultJudge, JudgeFields, judgeSettingsOf } from './judge-fields';
import { TaskFileField } from './task-file-field';

interface Problem {
  message: string;
  lines: Array<{ line: number; message: string }>;
}

function problemFrom(error: unknown): Problem {
  const details = error instanceof ApiError ? error.details : (error as { details?: unknown })?.details;
  const list = Array.isArray(details) ? details : Array.isArray((details as { errors?: unknown })?.errors) ? (details as { errors: unknown[] }).errors : [];
  const lines = list.filter((item): item is { line: number; message: string } => typeof item?.line === 'number' && typeof item?.message === 'string');
  const message = errorText(error);
  // The engine's message lists the bad lines too; the table below shows them, so keep its first line.
  return { message: lines.length ? message.split('\n')[0] : message, lines };
}

const optionalInt = (text: string) => (text.trim() === '' ? undefined : Number(text));

export function NewRunPage() {
  const go = useRoute((s) => s.go);
  const pickPaths = canPickPaths();
  const [file, setFile] = useState<File | null>(null);
  const [tasksPath, setTasksPath] = useState('');
  const [agent, setAgent] = useState(defaultAgent);
  const [judge, setJudge] = useState(defaultJudge);
  const [k, setK] = useState('');
  const [runs, setRuns] = useState<number>(RUN_DEFAULTS.runs);
  const [seed, setSeed] = useState<number>(RUN_DEFAULTS.seed);
  const [concurrency, setConcurrency] = useState<number>(RUN_DEFAULTS.concurrency);
  const [maxTurns, setMaxTurns] = useState<number>(RUN_DEFAULTS.max_turns);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const agentChoice = agentSettingsOf(agent);
    if ('problem' in agentChoice) return setProblem({ message: agentChoice.problem, lines: [] });
    const judgeChoice = judgeSettingsOf(judge);
    if ('problem' in judgeChoice) return setProblem({ message: judgeChoice.problem, lines: [] });
    if (!file && !tasksPath) return setProblem({ message: 'choose a task file (JSONL, one task a line)', lines: [] });
    setBusy(true);
    setProblem(null);
    try {
      const fallbackName = file ? file.name.replace(/\.jsonl$/i, '') : undefined;
      const started = await desk.call('runs.start', {
        ...(file ? { tasks_text: await file.text() } : { tasks_path: tasksPath }),
        agent: agentChoice.settings,
        judge: judgeChoice.settings,
        k: optionalInt(k),
        runs,
        seed,
        concurrency,
        max_turns: maxTurns,
        name: name.trim() || fallbackName,
      });
      go(hrefFor({ page: 'run', id: started.run_id }));
    } catch (error) {
      setProblem(problemFrom(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="page">
      <header className="page-head">
        <div>
          <a className="crumb" href={hrefFor({ page: 'datasets' })}>Runs and datasets</a>
          <h1>New run</h1>
        </div>
      </header>
      <form className="form" onSubmit={submit} aria-label="New run">
        <TaskFileField id="task-file" pickPaths={pickPaths} path={tasksPath} onPath={setTasksPath} onFile={setFile} />
        <AgentFields value={agent} onChange={setAgent} />
        <label htmlFor="k">k (answers per task)</label>
        <input id="k" type="number" min={1} max={10000} value={k} placeholder="1" onChange={(event) => setK(event.target.value)} />
        <span className="hint muted">{RUN_SETTING_HELP.k}</span>
        <label htmlFor="runs">Eval runs</label>
        <input id="runs" type="number" min={1} max={1000} value={runs} onChange={(event) => setRuns(Number(event.target.value))} />
        <JudgeFields value={judge} onChange={setJudge} />
        <label htmlFor="seed">Seed</label>
        <input id="seed" type="number" value={seed} onChange={(event) => setSeed(Number(event.target.value))} />
        <label htmlFor="concurrency">Concurrency</label>
        <input id="concurrency" type="number" min={1} max={1024} value={concurrency} onChange={(event) => setConcurrency(Number(event.target.value))} />
        <label htmlFor="max-turns">Max turns</label>
        <input id="max-turns" type="number" min={1} max={200} value={maxTurns} onChange={(event) => setMaxTurns(Number(event.target.value))} />
        <label htmlFor="run-name">Name</label>
        <input id="run-name" type="text" value={name} placeholder="the task file's name" onChange={(event) => setName(event.target.value)} />
        <span />
        <div>
          <button type="submit" className="primary" disabled={busy}>{busy ? 'Starting…' : 'Start run'}</button>
        </div>
      </form>
      {problem && (
        <div className="import-outcome error" role="alert" data-testid="run-problem">
          <span>The run did not start: {problem.message}</span>
          {problem.lines.length > 0 && (
            <table className="plain" aria-label="Bad task lines">
              <thead><tr><th className="num">Line</th><th>What was wrong</th></tr></thead>
              <tbody>
                {problem.lines.slice(0, 200).map((item) => (
                  <tr key={item.line}><td className="num">{item.line}</td><td>{item.message}</td></tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      )}
    </section>
  );
}
