// pass@1 per version over time with the noise band: each scored run a dot (with its interval) at the time it was
// scored, and the served version's score ± the eval's noise floor as a band. Pure, checked under Node.
import type { RunRow } from '../../../../shared/platform/types';

export interface VersionPoint {
  version: string;
  run: string | null;
  at: string;
  score: number;
  ci: number;
}

/** Every scored run on the behaviour, oldest first. */
export function versionHistory(runs: readonly RunRow[], behavior: string): VersionPoint[] {
  const points: VersionPoint[] = [];
  for (const run of runs) {
    const e = (run.evals ?? []).find((x) => x?.behavior === behavior && typeof x.score === 'number');
    if (!e) continue;
    points.push({ version: String(run.version ?? ''), run: run.id ?? null, at: String(e.createdAt || run.createdAt || ''), score: e.score as number, ci: e.ci ?? 0 });
  }
  return points.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}

export function versionsOverTime(points: readonly VersionPoint[], options: { behavior: string; serving: string | null; floor: number | null }) {
  const served = options.serving ? [...points].reverse().find((p) => p.version === options.serving) : undefined;
  const data: Array<Record<string, unknown>> = [];
  if (served && options.floor !== null && points.length) {
    const x = [points[0].at, points[points.length - 1].at];
    data.push({ type: 'scatter', mode: 'lines', name: `${served.version} − floor`, x, y: [served.score - options.floor, served.score - options.floor], line: { width: 0 }, showlegend: false, hoverinfo: 'skip' });
    data.push({
      type: 'scatter', mode: 'lines', name: `noise band: ${served.version} ± ${options.floor}`, x, y: [served.score + options.floor, served.score + options.floor],
      fill: 'tonexty', fillcolor: 'rgba(47, 95, 208, 0.12)', line: { width: 0 },
    });
  }
  data.push({
    type: 'scatter',
    mode: 'lines+markers',
    name: `${options.behavior} per version`,
    x: points.map((p) => p.at),
    y: points.map((p) => p.score),
    text: points.map((p) => (p.version === options.serving ? `${p.version} (serving)` : p.version)),
    error_y: { type: 'data', array: points.map((p) => p.ci), visible: true },
    marker: { size: 9, color: points.map((p) => (p.version === options.serving ? '#1a7f37' : '#2f5fd0')) },
    line: { color: '#9aa6c0' },
    hovertemplate: '%{text}: %{y:.1f} ± %{error_y.array:.1f}<extra></extra>',
  });
  const layout = {
    xaxis: { title: { text: 'scored at' }, type: 'date' },
    yaxis: { title: { text: `${options.behavior}: points (95% interval)` }, range: [0, 105] },
    showlegend: true,
  };
  return { data, layout };
}
