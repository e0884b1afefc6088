// Judge trust, live: judge_trust over the labeled rows (stats.judgeTrust, labeled_only, in the worker pool),
// re-read after every stored label, with the annotators' kappa (labels.summary) and "Label N more, aimed". Read first
// once the queue's first page is shown.
import { lazy, Suspense } from 'react';
import { desk } from '../../api/desk';
import { useLabel } from './label-store';
import { trustView } from '../../../../shared/stats/trust-verdict';
import { useLatest } from './use-latest';

// The probes' judge settings carry the run settings' schemas (zod): loaded after the queue's first row, not before it.
const JudgeProbes = lazy(() => import('./judge-probes').then((m) => ({ default: m.JudgeProbes })));

type Obj = Record<string, unknown>;

const fmt = (x: unknown, digits = 4) => (typeof x === 'number' ? String(Number(x.toFixed(digits))) : '—');

function Half({ name, half }: { name: string; half: Obj | undefined }) {
  const ci = Array.isArray(half?.ci95) ? (half?.ci95 as number[]) : null;
  return (
    <li data-testid={`trust-half-${name}`}>
      Half {name}: {fmt(half?.agreement)} {ci ? `[${fmt(ci[0])}, ${fmt(ci[1])}]` : ''} on {fmt(half?.n, 0)} rows
    </li>
  );
}

export function TrustPanel({ datasetId }: { datasetId: string }) {
  const stored = useLabel((s) => s.stored);
  const order = useLabel((s) => s.order);
  const setOrder = useLabel((s) => s.setOrder);
  // Read once the queue's first page has come, so the first row does not wait behind the trust numbers.
  const settled = useLabel((s) => s.settled && s.datasetId === datasetId);
  const key = settled ? `${datasetId}:${stored}` : `waiting:${datasetId}`;
  const trust = useLatest(settled ? () => desk.call('stats.judgeTrust', { dataset_id: datasetId, labeled_only: true }) : null, key);
  const summary = useLatest(settled ? () => desk.call('labels.summary', { dataset_id: datasetId }) : null, key);
  const report = (trust.value?.report ?? null) as Obj | null;
  const view = report ? trustView(report) : null;
  const halves = (report?.held_out_halves ?? {}) as Record<string, Obj>;
  const length = (report?.length_sensitivity ?? {}) as Obj;
  const warnings = Array.isArray(report?.warnings) ? (report?.warnings as string[]) : [];
  return (
    <aside className="trust-panel" aria-label="Judge trust" aria-busy={trust.busy || undefined} data-testid="trust-panel" data-stored={stored} data-trust-for={trust.loadedFor?.split(':').pop() ?? ''}>
      <h2>Judge trust</h2>
      {trust.error && <p className="error-text" role="alert">{trust.error}</p>}
      {view && (
        <>
          <p className={`verdict verdict-${view.word.replace(' ', '-')}`} data-testid="trust-verdict" role="status">{view.line}</p>
          <dl className="facts trust-facts">
            <dt>Agreement</dt>
            <dd data-testid="trust-agreement">{fmt(view.agreement)}</dd>
            <dt>95% interval</dt>
            <dd data-testid="trust-ci">{view.ci95 ? `[${fmt(view.ci95[0])}, ${fmt(view.ci95[1])}]` : '—'}</dd>
            <dt>Kappa</dt>
            <dd data-testid="trust-kappa">{fmt(view.kappa)}</dd>
            <dt>Gold rows</dt>
            <dd data-testid="trust-n-gold">{view.nGold}</dd>
            <dt>Rows with both</dt>
            <dd data-testid="trust-n">{view.n}</dd>
            <dt>Length bias</dt>
            <dd data-testid="trust-length">{typeof length.max_gap === 'number' ? `${fmt(length.max_gap)}${length.flagged ? ' (flagged)' : ''}` : 'too few rows'}</dd>
          </dl>
          <ul className="plain-list">
            <Half name="a" half={halves.a} />
            <Half name="b" half={halves.b} />
          </ul>
          {view.more !== null && view.more > 0 && (
            <button type="button" className="primary" data-testid="label-more" aria-pressed={order === 'aimed'} onClick={() => setOrder('aimed')}>
              Label {view.more} more, aimed
            </button>
          )}
          {warnings.length > 0 && (
            <details className="warnings">
              <summary>{warnings.length} note{warnings.length > 1 ? 's' : ''} from judge_trust</summary>
              <ul>{warnings.map((w, i) => <li key={i}>{w}</li>)}</ul>
            </details>
          )}
        </>
      )}
      <Suspense fallback={null}>
        <JudgeProbes datasetId={datasetId} />
      </Suspense>
      {summary.value && summary.value.pairs.length > 0 && (
        <table className="plain" aria-label="Annotator agreement">
          <thead><tr><th>Annotators</th><th className="num">n</th><th className="num">Kappa</th></tr></thead>
          <tbody>
            {summary.value.pairs.map((pair) => (
              <tr key={`${pair.a}|${pair.b}`} data-testid="annotator-pair">
                <td>{pair.a} · {pair.b}</td><td className="num">{pair.n}</td><td className="num" data-testid="pair-kappa">{fmt(pair.kappa)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </aside>
  );
}
