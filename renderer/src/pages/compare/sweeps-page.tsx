// Compare → Sweeps: every sweep with its status, live progress and winner (a click opens its ranked report), and the
// New sweep form.
import { useCallback, useEffect, useState } from 'react';
import type { SweepSummary } from '../../../../shared/api/sweeps';
import { desk, errorText } from '../../api/desk';
import { formatCount, formatDate } from '../../components/format';
import { hrefFor } from '../../store/route-store';
import { NewSweepForm } from './new-sweep-form';
import { CompareNav } from './sweep-nav';
import './compare.css';
import './sweep.css';

export function SweepsPage() {
  const [sweeps, setSweeps] = useState<SweepSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const load = useCallback(() => desk.call('sweeps.list', {}).then(setSweeps, (e: unknown) => setError(errorText(e))), []);
  useEffect(() => {
    void load();
    // Rows counts move while a sweep goes; a few refreshes a second at most.
    let pending = false;
    return desk.on('sweep.progress', () => {
      if (pending) return;
      pending = true;
      setTimeout(() => ((pending = false), void load()), 500);
    });
  }, [load]);
  return (
    <section className="page compare-page">
      <header className="page-head">
        <h1>Sweeps</h1>
        <div className="page-actions">
          <button type="button" className={creating ? undefined : 'primary'} data-testid="new-sweep" onClick={() => setCreating((open) => !open)}>
            {creating ? 'Close the form' : 'New sweep'}
          </button>
        </div>
      </header>
      <CompareNav current="sweeps" />
      <p className="muted">
        Prompts and models on one frozen task set, one k and one judge, ranked with intervals and a noise floor. Start one here or
        with <code> while-desk sweep --tasks FILE --variants FILE.json --judge SPEC</code> (docs/sweeps.md).
      </p>
      {creating && <NewSweepForm />}
      {error && <p className="error-text" role="alert">{error}</p>}
      {sweeps && sweeps.length === 0 && <p className="muted">No sweeps yet.</p>}
      {sweeps && sweeps.length > 0 && (
        <table className="plain" aria-label="Sweeps">
          <thead>
            <tr><th>Sweep</th><th>Status</th><th>Rows</th><th>Variants</th><th>Winner</th><th>Started</th></tr>
          </thead>
          <tbody>
            {sweeps.map((s) => (
              <tr key={s.id}>
                <td><a href={hrefFor({ section: 'compare', page: 'sweep', id: s.id })}>{s.name}</a></td>
                <td>{s.status}{s.error ? ' (see the sweep)' : ''}</td>
                <td>{formatCount(s.rows)} / {formatCount(s.expected_rows)}</td>
                <td>{s.variants}</td>
                <td>{s.best ?? (s.status === 'done' ? 'none (about the same)' : '—')}</td>
                <td>{formatDate(s.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
