// "What will the policy learn?": the dataset's hack scan (docs/hack-scan.md), computed by the engine in a statistics
// worker: the verdict, what the asks can move, the noise floor and the ranked features, and every warning.
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import type { HackScanFeature } from '../../../../shared/stats/hack-scan-types';
import { desk } from '../../api/desk';
import { formatCount } from '../../components/format';
import { pct } from './explain';
import { JobPending } from './job-pending';
import { useStatsJob } from './use-stats-job';
import './measure.css';

type Obj = Record<string, unknown>;
type FeatureRow = HackScanFeature;

const VERDICTS: Record<string, string> = {
  train: 'Train: the reward pays for what it should.',
  reward_hack: 'Reward hack: the reward is best explained by something you did not endorse.',
  pool_exhausted: 'Pool exhausted: too many asks already pass on every rollout to teach much.',
  no_signal: 'No signal: nothing separates rollouts of one ask above the noise floor.',
  degenerate: 'Cannot tell: too few distinct rollouts per ask to tell the features apart.',
  unknown: 'Not ranked: see the warnings below.',
};

const signed = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(3)}`;
const patternsOf = (text: string) => text.split(',').map((part) => part.trim()).filter(Boolean);

function FeatureTable({ features, tau }: { features: FeatureRow[]; tau: number | null }) {
  return (
    <table className="hack-features" data-testid="hack-features">
      <thead>
        <tr>
          <th scope="col">Feature</th>
          <th scope="col" title="Correlation with reward within each ask: what a grouped update learns">Within ask</th>
          <th scope="col" title="Correlation with reward over all rows">Pooled</th>
          <th scope="col">Rows</th>
        </tr>
      </thead>
      <tbody>
        {features.map((f) => (
          <tr key={f.name} data-feature={f.name} data-above={f.above_floor ? 'yes' : 'no'} className={f.above_floor ? 'hack-above' : undefined}>
            <th scope="row" className="mono" title={f.aliases.length ? `The same rows as ${f.aliases.join(', ')}` : undefined}>
              {f.name}
              {f.endorsed && <span className="hack-tag"> endorsed</span>}
              {f.aliases.length > 0 && <span className="muted"> (+{f.aliases.length})</span>}
            </th>
            <td>
              <span className="hack-bar">
                <span className={`hack-bar-fill ${f.rho >= 0 ? 'pos' : 'neg'}`} style={{ width: `${Math.min(100, Math.abs(f.rho) * 100)}%` }} />
                {tau !== null && <span className="hack-bar-floor" style={{ left: `${Math.min(100, tau * 100)}%` }} title={`noise floor ${tau.toFixed(3)}`} />}
              </span>
              <span className="mono">{signed(f.rho)}</span>
            </td>
            <td className="mono">{signed(f.pooled)}</td>
            <td className="mono">{formatCount(f.n_obs)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ScanReport({ report }: { report: Obj }) {
  const support = (report.support ?? {}) as Obj;
  const features = (Array.isArray(report.features) ? report.features : []) as FeatureRow[];
  const warnings = (Array.isArray(report.warnings) ? report.warnings : []) as string[];
  const tau = typeof report.tau === 'number' ? report.tau : null;
  const regime = String(report.regime);
  return (
    <>
      <p className={`hack-verdict hack-${regime}`} data-testid="hack-verdict" data-regime={regime}>
        <strong>{VERDICTS[regime] ?? regime}</strong>
        {report.top_feature ? <> A policy trained on this reward moves toward <span className="mono">{String(report.top_feature)}</span>.</> : null}
      </p>
      <p className="measure-sub">
        {formatCount(Number(report.n_graded))} graded rollouts of {formatCount(Number(report.n_rows))} rows over {formatCount(Number(report.n_groups))} asks,{' '}
        {String(report.rollouts_per_group)} per ask at the median: {pct(support.mixed, 0)} of asks mixed, {pct(support.sat, 0)} all pass, {pct(support.dead, 0)} all fail;
        gradient capacity {typeof support.capacity === 'number' ? support.capacity.toFixed(2) : '—'}.
      </p>
      {tau !== null && (
        <p>
          Noise floor <span className="mono">{tau.toFixed(3)}</span> (the 95th percentile of the strongest feature when reward is shuffled within ask,{' '}
          {String(report.n_perm)} shuffles): {String(report.n_above_floor)} of {String(report.n_features)} features clear it.
          {typeof report.integrity === 'number' && <> Integrity {report.integrity.toFixed(2)}: the share of that signal on endorsed features.</>}
        </p>
      )}
      {features.length > 0 && <FeatureTable features={features} tau={tau} />}
      {warnings.length > 0 && (
        <ul className="measure-notes" aria-label="Warnings">
          {warnings.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
    </>
  );
}

export function HackScanPanel({ datasetId }: { datasetId: string }) {
  const [draft, setDraft] = useState('');
  const [endorsed, setEndorsed] = useState<string[]>([]);
  const [version, setVersion] = useState(0);
  useEffect(() => desk.on('datasets.changed', (event) => event.id === datasetId && setVersion((v) => v + 1)), [datasetId]);
  const input = useMemo(() => ({ dataset_id: datasetId, endorsed }), [datasetId, endorsed]);
  const scan = useStatsJob('stats.hackScan', input, `${datasetId}|${version}|${endorsed.join(',')}`);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setEndorsed(patternsOf(draft));
  };
  return (
    <div className="measure-panel" data-dataset={datasetId}>
      <section className="measure-card" aria-label="What will the policy learn?">
        <h3>What will the policy learn?</h3>
        <p className="measure-sub">
          A grouped RL update learns whatever separates reward between rollouts of the same ask. Every candidate feature (reply length, tool calls,
          markers, common words and word pairs) is ranked by that within-ask correlation against a noise floor.
        </p>
        <form className="hack-form" onSubmit={submit}>
          <label className="measure-field">
            What the reward should pay for (feature names or parts of them, comma-separated)
            <input type="text" value={draft} onChange={(e) => setDraft(e.target.value)} placeholder="tool:lookup_order, marker:grounded" aria-label="Endorsed features" />
          </label>
          <button type="submit">Scan</button>
        </form>
        <JobPending state={scan} what="the hack scan" />
        {scan.status === 'done' && <ScanReport report={scan.value.report as Obj} />}
      </section>
    </div>
  );
}
