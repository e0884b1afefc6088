// New run: a task file, an agent, k, runs and a judge; starts `runs.start` and opens the run's progress.
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../../../shared/api/define';
import { desk, errorText } from '../../api/desk';
import { hrefFor, useRoute } from '../../store/route-store';
import { AgentFields, agentSpec, defaultAgent } from './agent-fields';

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

export function NewRunPage() {
  const go = useRoute((s) => s.go);
  const [file, setFile] = useState<File | null>(null);
  const [tasksPath, setTasksPath] = useState('');
  const [agent, setAgent] = useState(defaultAgent);
  const [k, setK] = useState(4);
  const [runs, setRuns] = useState(1);
  const [judge, setJudge] = useState('');
  const [rubric, setRubric] = useState('');
  const [seed, setSeed] = useState(0);
  const [concurrency, setConcurrency] = useState(8);
  const [maxTurns, setMaxTurns] = useState(8);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const spec = agentSpec(agent);
    if ('problem' in spec) return setProblem({ message: spec.problem, lines: [] });
    if (!file && !tasksPath.trim()) return setProblem({ message: 'pick a task file (JSONL, one task a line) or give its path', lines: [] });
    setBusy(true);
    setProblem(null);
    try {
      const started = await desk.call('runs.start', {
        ...(file ? { tasks_text: await file.text() } : { tasks_path: tasksPath.trim() }),
        agent: spec.spec,
        k,
        runs,
        seed,
        concurrency,
        max_turns: maxTurns,
        ...(agent.kind === 'seeded' ? { misbehave_rate: agent.misbehaveRate } : {}),
        ...(agent.kind === 'openai' && agent.apiKeyEnv.trim() ? { api_key_env: agent.apiKeyEnv.trim() } : {}),
        ...(judge.trim() ? { judge: judge.trim() } : {}),
        ...(rubric.trim() ? { rubric: rubric.trim() } : {}),
        ...(name.trim() ? { name: name.trim() } : file ? { name: file.name.replace(/\.jsonl$/i, '') } : {}),
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
        <label htmlFor="task-file">Task file</label>
        <input id="task-file" type="file" accept=".jsonl,.ndjson,.json" data-testid="task-file" onChange={(event) => setFile(event.target.files?.[0] ?? null)} />
        <label htmlFor="task-path">or its path</label>
        <input id="task-path" type="text" value={tasksPath} disabled={file !== null} placeholder="/path/to/tasks.jsonl (on the engine's machine)" onChange={(event) => setTasksPath(event.target.value)} />
        <AgentFields value={agent} onChange={setAgent} />
        <label htmlFor="k">k (answers per task)</label>
        <input id="k" type="number" min={1} max={10000} value={k} onChange={(event) => setK(Number(event.target.value))} />
        <label htmlFor="runs">Eval runs</label>
        <input id="runs" type="number" min={1} max={1000} value={runs} onChange={(event) => setRuns(Number(event.target.value))} />
        <label htmlFor="judge">Judge</label>
        <input id="judge" type="text" value={judge} placeholder="none, or judge.mjs, rules.json, llm:AGENT" onChange={(event) => setJudge(event.target.value)} />
        <span className="hint muted">A path on the engine's machine: a .mjs module, a .json rules file, or llm:&lt;agent spec&gt; with a rubric. Empty: rows stay ungraded.</span>
        {judge.trim().startsWith('llm:') && (
          <>
            <label htmlFor="rubric">Rubric file</label>
            <input id="rubric" type="text" value={rubric} onChange={(event) => setRubric(event.target.value)} />
          </>
        )}
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
