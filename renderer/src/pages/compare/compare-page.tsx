// Compare and sweeps: pick a baseline and a candidate (`#/compare/BASELINE/CANDIDATE`), then read the paired report.
import { useEffect, useState } from 'react';
import { useDatasets } from '../../store/datasets-store';
import { hrefFor, useRoute } from '../../store/route-store';
import { CompareReport } from './compare-report';
import './compare.css';

function Picker({ baseline, candidate }: { baseline: string | null; candidate: string | null }) {
  const { datasets, refresh } = useDatasets();
  const go = useRoute((s) => s.go);
  const [a, setA] = useState(baseline ?? '');
  const [b, setB] = useState(candidate ?? '');
  useEffect(() => void refresh(), [refresh]);
  useEffect(() => {
    setA(baseline ?? '');
    setB(candidate ?? '');
  }, [baseline, candidate]);
  const options = datasets.map((d) => (
    <option key={d.id} value={d.id}>
      {d.name} ({d.kind}, {d.rows} rows) · {d.id}
    </option>
  ));
  return (
    <form
      className="compare-picker"
      aria-label="Pick the runs to compare"
      onSubmit={(event) => {
        event.preventDefault();
        if (a && b) go(hrefFor({ section: 'compare', id: a, other: b }));
      }}
    >
      <label>
        Baseline
        <select value={a} onChange={(e) => setA(e.target.value)} data-testid="compare-baseline">
          <option value="">choose a run or dataset…</option>
          {options}
        </select>
      </label>
      <label>
        Candidate
        <select value={b} onChange={(e) => setB(e.target.value)} data-testid="compare-candidate">
          <option value="">choose a run or dataset…</option>
          {options}
        </select>
      </label>
      <button type="submit" disabled={!a || !b || a === b}>Compare</button>
    </form>
  );
}

export function ComparePage() {
  const route = useRoute((s) => s.route);
  return (
    <section className="page compare-page">
      <header className="page-head">
        <h1>Compare</h1>
      </header>
      <p className="muted">
        Did the candidate move pass@1 against the baseline? Paired over tasks, with intervals and the eval's noise floor; a thin eval
        reads unproven.
      </p>
      <Picker baseline={route.id} candidate={route.other} />
      {route.id && route.other && <CompareReport baseline={route.id} candidate={route.other} />}
    </section>
  );
}
