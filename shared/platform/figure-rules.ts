// The platform's figure rules (platform-api §4.2 "Figure"), checked before a figure is saved or posted: the same
// checks the API makes (413 past 200,000 bytes, 422 past 50 traces, names and trace types), so nothing is refused later.

export const FIGURE_NAME_PATTERN = /^[a-z0-9][a-z0-9-]{0,39}$/;
export const FIGURE_MAX_BYTES = 200_000;
export const FIGURE_MAX_TRACES = 50;
export const FIGURE_CAPTION_MAX = 1024;
export const FIGURE_TRACE_TYPES = ['scatter', 'bar', 'pie'] as const;
/** Layout keys the API drops; dropped here too, so the saved figure is what the platform keeps. */
const DROPPED_LAYOUT_KEYS = ['images', 'updatemenus', 'sliders', 'template'];

export interface PlatformFigure {
  data: Array<Record<string, unknown>>;
  layout: Record<string, unknown>;
}

export type FigureCheck = { ok: true; figure: PlatformFigure; bytes: number } | { ok: false; problems: string[] };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A figure name the platform accepts, from any title: lower case, dashes, at most 40 characters. */
export function figureNameFrom(title: string): string {
  const name = title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40).replace(/-+$/, '');
  return name || 'figure';
}

export function checkFigure(name: string, figure: { data: unknown; layout?: unknown }, caption?: string): FigureCheck {
  const problems: string[] = [];
  if (!FIGURE_NAME_PATTERN.test(name)) problems.push(`the name "${name}" must be 1 to 40 of a-z, 0-9 and -, starting with a letter or digit`);
  if (caption !== undefined && caption.length > FIGURE_CAPTION_MAX) problems.push(`the caption has ${caption.length} characters; at most ${FIGURE_CAPTION_MAX}`);
  const traces = Array.isArray(figure.data) ? figure.data : null;
  if (!traces) problems.push('data must be a list of traces');
  else if (traces.length < 1 || traces.length > FIGURE_MAX_TRACES) problems.push(`a figure holds 1 to ${FIGURE_MAX_TRACES} traces (this one has ${traces.length})`);
  const data: Array<Record<string, unknown>> = [];
  for (const [i, trace] of (traces ?? []).entries()) {
    if (!isObject(trace)) {
      problems.push(`trace ${i} is not an object`);
      continue;
    }
    const type = trace.type ?? 'scatter';
    if (!(FIGURE_TRACE_TYPES as readonly unknown[]).includes(type)) problems.push(`trace ${i} is of type "${String(type)}"; the platform draws ${FIGURE_TRACE_TYPES.join(', ')}`);
    data.push(trace);
  }
  const layout: Record<string, unknown> = {};
  if (figure.layout !== undefined && !isObject(figure.layout)) problems.push('layout must be an object');
  for (const [key, value] of Object.entries(isObject(figure.layout) ? figure.layout : {})) if (!DROPPED_LAYOUT_KEYS.includes(key)) layout[key] = value;
  const cleaned: PlatformFigure = { data, layout };
  const bytes = new TextEncoder().encode(JSON.stringify(cleaned)).length;
  if (bytes > FIGURE_MAX_BYTES) problems.push(`the figure is ${bytes.toLocaleString('en-US')} bytes of JSON; the platform takes at most ${FIGURE_MAX_BYTES.toLocaleString('en-US')}`);
  return problems.length ? { ok: false, problems } : { ok: true, figure: cleaned, bytes };
}
