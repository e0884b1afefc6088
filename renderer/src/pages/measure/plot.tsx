// A Plotly chart, loaded on first use (plotly.js-basic-dist), redrawn with Plotly.react when its data change.
import { useEffect, useMemo, useRef, useState } from 'react';
import type { PlotlyApi } from 'plotly.js-basic-dist';
import { SaveFigure } from './save-figure';

let plotly: Promise<PlotlyApi> | null = null;
function loadPlotly(): Promise<PlotlyApi> {
  plotly ??= import('plotly.js-basic-dist').then((module) => module.default);
  return plotly;
}

// Plotly is loaded when the first chart is drawn, i.e. once a statistic has come back from the worker: its
// one-off script evaluation is a long task, and it must not fall while a statistic computes or a table scrolls.

function themeColors(): { text: string; line: string } {
  const style = getComputedStyle(document.documentElement);
  return { text: style.getPropertyValue('--text').trim() || '#1f2328', line: style.getPropertyValue('--line').trim() || '#e3e3e0' };
}

interface PlotProps {
  /** The traces, or a function that makes them when the chart is first drawn or saved (many points: onRequest). */
  data: unknown[] | (() => unknown[]);
  layout: Record<string, unknown>;
  label: string;
  height?: number;
  /** The platform's figure name: offers saving the chart as figure JSON and PNG. */
  figureName?: string;
  /**
   * Drawn only when the person asks (its button, or Save PNG): for a chart on a screen that must open without a long
   * task, as loading Plotly (a 1.1 MB script, 190-300 ms here) and drawing 25,000 points would be one right after it opens.
   */
  onRequest?: boolean;
}

export function Plot({ data, layout, label, height = 300, figureName, onRequest = false }: PlotProps) {
  const ref = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [asked, setAsked] = useState(!onRequest);
  // The traces, made once per `data` and only when needed: a chart drawn on request costs nothing until it is.
  const dataOf = useMemo(() => {
    let made: unknown[] | undefined;
    return () => (made ??= typeof data === 'function' ? data() : data);
  }, [data]);
  // Settles once the chart is first drawn (or failed to be): saving a PNG of a chart not drawn yet draws it first.
  const [firstDrawn] = useState(() => {
    let settle = () => {};
    const promise = new Promise<void>((resolve) => (settle = resolve));
    return { promise, settle };
  });
  useEffect(() => {
    let live = true;
    const el = ref.current;
    if (!el || !asked) return;
    const colors = themeColors();
    loadPlotly()
      .then((Plotly) => {
        if (!live) return;
        const axis = { gridcolor: colors.line, zerolinecolor: colors.line };
        return Plotly.react(
          el,
          dataOf(),
          {
            height,
            margin: { l: 52, r: 16, t: 10, b: 44 },
            paper_bgcolor: 'rgba(0,0,0,0)',
            plot_bgcolor: 'rgba(0,0,0,0)',
            font: { color: colors.text, size: 12 },
            legend: { orientation: 'h', y: -0.22 },
            ...layout,
            xaxis: { ...axis, ...(layout.xaxis as object) },
            yaxis: { ...axis, ...(layout.yaxis as object) },
          },
          { displaylogo: false, responsive: true, modeBarButtonsToRemove: ['lasso2d', 'select2d'] },
        );
      })
      .catch((error: unknown) => live && setFailed(String(error)))
      .finally(() => live && firstDrawn.settle()); // drawn or failed: a PNG waiting for it goes on (and says why not)
    return () => {
      live = false;
    };
  }, [dataOf, layout, height, asked, firstDrawn]);
  useEffect(() => {
    const el = ref.current;
    return () => {
      if (el && plotly) void plotly.then((Plotly) => Plotly.purge(el));
    };
  }, []);
  return (
    <figure className="measure-plot" aria-label={label}>
      <div ref={ref} style={{ minHeight: asked ? height : undefined }} />
      {!asked && (
        <button type="button" onClick={() => setAsked(true)}>
          Draw the plot: {label.charAt(0).toLowerCase() + label.slice(1)}
        </button>
      )}
      {figureName && (
        <SaveFigure
          name={figureName}
          data={dataOf}
          layout={layout}
          drawnChart={() => {
            setAsked(true);
            return firstDrawn.promise.then(() => ref.current);
          }}
          loadPlotly={loadPlotly}
        />
      )}
      {failed && <figcaption className="error-text">The chart could not be drawn: {failed}</figcaption>}
    </figure>
  );
}
