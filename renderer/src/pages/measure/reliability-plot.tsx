// pass^k and pass@k against k with their 95% intervals: how reliability falls and coverage rises with tries.
import { useMemo } from 'react';
import type { ReliabilityPoint } from '../../../../shared/api/stats';
import { isInterval } from './explain';
import { Plot } from './plot';

function trace(points: ReliabilityPoint[], name: string, color: string, pick: (p: ReliabilityPoint) => [number | null, unknown]) {
  const shown = points.filter((p) => pick(p)[0] !== null);
  const y = shown.map((p) => pick(p)[0] as number);
  const ci = shown.map((p) => pick(p)[1]);
  return {
    type: 'scatter',
    mode: 'lines+markers',
    name,
    x: shown.map((p) => p.k),
    y,
    line: { color },
    error_y: {
      type: 'data',
      symmetric: false,
      array: ci.map((c, i) => (isInterval(c) ? c[1] - y[i] : 0)),
      arrayminus: ci.map((c, i) => (isInterval(c) ? y[i] - c[0] : 0)),
      color,
      thickness: 1.2,
    },
    hovertemplate: `${name.split(' ')[0]} at k=%{x}: %{y:.1%}<extra></extra>`,
  };
}

export function ReliabilityPlot({ points }: { points: ReliabilityPoint[] }) {
  const data = useMemo(
    () => [trace(points, 'pass^k (all k pass)', '#b42318', (p) => [p.pass_pow_k, p.pass_pow_k_ci95]), trace(points, 'pass@k (any of k passes)', '#2f5fd0', (p) => [p.pass_at_k, p.pass_at_k_ci95])],
    [points],
  );
  const layout = useMemo(
    () => ({
      xaxis: { title: { text: 'k (tries per task)' }, dtick: 1, range: [0.7, Math.max(1, ...points.map((p) => p.k)) + 0.3] },
      yaxis: { title: { text: 'share of tasks' }, tickformat: '.0%', range: [0, 1.02] },
    }),
    [points],
  );
  if (!points.some((p) => p.pass_at_k !== null || p.pass_pow_k !== null)) {
    return <p className="muted">No task has two or more graded tries, so there is no reliability curve to draw.</p>;
  }
  return (
    <section className="measure-card" aria-label="Reliability plot">
      <h3>Reliability against k</h3>
      <Plot data={data} layout={layout} label="pass^k and pass@k against k" figureName="reliability-pass-k" />
      <p className="muted">Bars are 95% bootstrap intervals over tasks; each k counts the tasks with at least k graded tries.</p>
    </section>
  );
}
