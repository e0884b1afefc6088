// The sweep dots: each variant's pass@1 with its 95% interval, prompts along the axis, one colour per model
// (so the dots group by prompt and by model at once). Pure, so the figure rules can be checked under Node.
import type { z } from '../../../../shared/schema/zod';
import type { sweepReportSchema } from '../../../../shared/api/sweeps';

type Report = z.output<typeof sweepReportSchema>;

const COLORS = ['#2f5fd0', '#c2410c', '#1a7f37', '#7e22ce', '#b45309', '#0e7490', '#be123c', '#4d7c0f'];

/** The prompt and model a `prompt@model` label names; a label with no "@" is a prompt on the variant's model. */
export function splitLabel(label: string, model: string | null): { prompt: string; model: string } {
  const at = label.indexOf('@');
  return at < 0 ? { prompt: label, model: model ?? '?' } : { prompt: label.slice(0, at), model: label.slice(at + 1) };
}

export function sweepDots(report: Report): { data: Array<Record<string, unknown>>; layout: Record<string, unknown> } {
  const byModel = new Map<string, Array<{ prompt: string; label: string; points: number; ci: number }>>();
  for (const v of report.variants) {
    const { prompt, model } = splitLabel(v.label, v.model);
    const [points, ci] = v.scores[report.behavior];
    byModel.set(model, [...(byModel.get(model) ?? []), { prompt, label: v.label, points, ci }]);
  }
  const models = [...byModel.keys()];
  const data = models.slice(0, 50).map((model, i) => {
    const dots = byModel.get(model)!;
    return {
      type: 'scatter',
      mode: 'markers',
      name: model,
      x: dots.map((d) => d.prompt),
      y: dots.map((d) => d.points),
      text: dots.map((d) => d.label),
      error_y: { type: 'data', array: dots.map((d) => d.ci), visible: true },
      marker: { color: COLORS[i % COLORS.length], size: 10 },
      hovertemplate: '%{text}: %{y:.1f} ± %{error_y.array:.1f}<extra></extra>',
    };
  });
  const layout = {
    xaxis: { title: { text: 'prompt' }, type: 'category' },
    yaxis: { title: { text: `${report.behavior}: pass@1 (points, 95% interval)` }, range: [0, 105] },
    showlegend: true,
  };
  return { data, layout };
}
