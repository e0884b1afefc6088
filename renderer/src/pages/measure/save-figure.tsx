// Saving a chart: as the platform's figure JSON (checked by the platform's figure rules first, so what is saved is
// what the platform would take) and as PNG. Downloads go through a blob link, which the desktop app and a browser both allow.
import { useState } from 'react';
import type { PlotlyApi } from 'plotly.js-basic-dist';
import { checkFigure } from '../../../../shared/platform/figure-rules';
import { downloadLink } from '../../api/files';

/** `drawnChart`: the chart's element once it is drawn (drawing it first when it is not yet), for the PNG. */
export function SaveFigure({ name, data, layout, drawnChart, loadPlotly }: { name: string; data: () => unknown[]; layout: Record<string, unknown>; drawnChart(): Promise<HTMLDivElement | null>; loadPlotly(): Promise<PlotlyApi> }) {
  const [problem, setProblem] = useState<string | null>(null);
  const saveJson = () => {
    const checked = checkFigure(name, { data: data(), layout });
    if (!checked.ok) {
      setProblem(`Not saved: ${checked.problems.join('; ')}.`);
      return;
    }
    setProblem(null);
    const url = URL.createObjectURL(new Blob([JSON.stringify(checked.figure)], { type: 'application/json' }));
    downloadLink(url, `${name}.json`);
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };
  const savePng = async () => {
    try {
      const element = await drawnChart();
      if (!element) return;
      const Plotly = await loadPlotly();
      downloadLink(await Plotly.toImage(element, { format: 'png', scale: 2 }), `${name}.png`);
      setProblem(null);
    } catch (error) {
      setProblem(`The PNG could not be made: ${String(error)}`);
    }
  };
  return (
    <div className="save-figure">
      <button type="button" className="link" onClick={saveJson} title="The platform's figure JSON: {data, layout}">Save figure JSON</button>
      <button type="button" className="link" onClick={() => void savePng()}>Save PNG</button>
      {problem && <span className="error-text" role="alert">{problem}</span>}
    </div>
  );
}
