// Compare → Agents and verdicts: the agents runs name (--agent-name), their versions and the one serving.
import { useEffect, useState } from 'react';
import type { AgentSummary } from '../../../../shared/api/agents';
import { desk, errorText } from '../../api/desk';
import { hrefFor } from '../../store/route-store';
import { CompareNav } from './sweep-nav';
import './compare.css';
import './sweep.css';

export function AgentsPage() {
  const [agents, setAgents] = useState<AgentSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => void desk.call('agents.list', {}).then(setAgents, (e: unknown) => setError(errorText(e))), []);
  return (
    <section className="page compare-page">
      <header className="page-head">
        <h1>Agents and verdicts</h1>
      </header>
      <CompareNav current="agents" />
      <p className="muted">
        Runs started with <code>--agent-name NAME --version V</code> score a version of an agent; <code>while-desk promote NAME V</code> marks
        the serving one, and each agent&apos;s page reads the newest other version against it.
      </p>
      {error && <p className="error-text" role="alert">{error}</p>}
      {agents && agents.length === 0 && <p className="muted">No run names an agent yet.</p>}
      {agents && agents.length > 0 && (
        <table className="plain" aria-label="Agents">
          <thead><tr><th>Agent</th><th>Serving</th><th>Versions</th></tr></thead>
          <tbody>
            {agents.map((a) => (
              <tr key={a.name}>
                <td><a href={hrefFor({ section: 'compare', page: 'agent', id: a.name })}>{a.name}</a></td>
                <td>{a.serving ?? 'none promoted'}</td>
                <td>{a.versions.map((v) => `${v.version} (${v.runs} run${v.runs === 1 ? '' : 's'})`).join(', ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
