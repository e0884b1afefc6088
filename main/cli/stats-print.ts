// Readable reports for `while-desk stats`: numbers, intervals and every note or warning in plain words.
import { compareLines, deltaLines } from './stats-print-delta';
import { judgeTrustLines } from './stats-print-judge';
import { hackScanLines } from './stats-print-hack';
import type { StatName } from '../../shared/stats/registry/index';

type Obj = Record<string, unknown>;
/** A job's output as the API returns it: the report, and extras such as kept_indices. */
export type StatsOutput = { report?: Obj; kept_indices?: number[]; [key: string]: unknown };

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isInterval = (v: unknown): v is [number, number] => Array.isArray(v) && v.length === 2 && v.every((x) => typeof x === 'number');

export function fmt(value: unknown, digits = 3): string {
  if (value === null || value === undefined) return 'n/a';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : value.toFixed(digits);
  if (isInterval(value)) return `[${fmt(value[0], digits)}, ${fmt(value[1], digits)}]`;
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

function withCi(label: string, value: unknown, ci: unknown, width = 10): string {
  const interval = isInterval(ci) ? `  95% interval ${fmt(ci)}` : '  (no interval)';
  return `${label.padEnd(width)} ${fmt(value).padStart(6)}${value === null || value === undefined ? '' : interval}`;
}

function bullets(title: string, items: unknown): string[] {
  const list = Array.isArray(items) ? items.filter((x) => typeof x === 'string' && x) : typeof items === 'string' && items ? items.split('; ') : [];
  return list.length ? [`${title}:`, ...list.map((item) => `  - ${String(item)}`)] : [];
}

function passAtLines(r: Obj): string[] {
  const k = r.k;
  const cfg = isObj(r.config) ? r.config : {};
  return [
    `${r.n_groups} tasks, ${r.n_rows} graded rows, k = ${k}${r.n_groups_at_k ? ` (${r.n_groups_at_k} tasks scored at k${r.n_groups_imputed ? `, ${r.n_groups_imputed} imputed` : ''})` : ''}`,
    withCi('pass@1', r.pass_at_1, r.ci95),
    withCi(`pass^${k}`, r.pass_pow_k, r.pass_pow_k_ci95),
    withCi(`pass@${k}`, r.pass_at_k, r.pass_at_k_ci95),
    `${'headroom'.padEnd(10)} ${fmt(r.headroom).padStart(6)}  (pass@${k} minus pass@1)`,
    ...bullets('Notes', r.note),
    `Run: ${Object.entries(cfg).filter(([key, v]) => v !== null && key !== 'n_tasks' && key !== 'k' && !(Array.isArray(v) && !v.length)).map(([key, v]) => `${key} ${fmt(v, 4)}`).join(', ') || 'no settings recorded'}`,
  ];
}

function curriculumLines(r: Obj): string[] {
  const t = isObj(r.thresholds) ? r.thresholds : {};
  const tiers = Array.isArray(r.tiers) ? (r.tiers as unknown[][]) : [];
  const ids = (list: unknown) => (Array.isArray(list) ? list.map((x) => (isObj(x) ? `${x.task_id} (${fmt(x.pass_rate, 2)})` : String(x))) : []);
  const short = (list: string[]) => (list.length > 12 ? `${list.slice(0, 12).join(', ')} ... and ${list.length - 12} more` : list.join(', ') || 'none');
  return [
    `${r.n_tasks} tasks: ${r.n_trainable} trainable, ${r.n_solved} retired (solved), ${r.n_not_ready} not ready, ${r.n_thin} with too few rollouts`,
    `${r.n_in_band} trainable tasks in the band ${fmt(t.band)}; solved above ${fmt(t.solved, 2)}, floor ${fmt(t.floor, 2)}, at least ${t.min_rollouts} rollouts`,
    ...tiers.map((tier, i) => `Tier ${i + 1}: ${short(ids(tier))}`),
    `Retired: ${short(ids(r.retired))}`,
    `Not ready: ${short(ids(r.not_ready))}`,
  ];
}

function genericLines(r: Obj): string[] {
  const lines: string[] = [];
  const textual: string[] = [];
  for (const [key, value] of Object.entries(r)) {
    if (key === 'warnings' || key === 'notes' || key === 'note') continue;
    if (key.endsWith('ci95') || key === 'ci95') continue;
    const ci = typeof value === 'number' ? r[key === 'delta' ? 'ci95' : `${key}_ci95`] : null;
    if (value === null || typeof value !== 'object' || isInterval(value)) {
      lines.push(`${key.replace(/_/g, ' ')}: ${fmt(value, 4)}${isInterval(ci) ? `  95% interval ${fmt(ci, 4)}` : ''}`);
    } else if (Array.isArray(value) && value.every((x) => typeof x !== 'object' || x === null)) {
      lines.push(`${key.replace(/_/g, ' ')}: ${value.length ? value.map((x) => fmt(x, 4)).join(', ') : 'none'}`);
    } else {
      textual.push(`${key.replace(/_/g, ' ')}: ${JSON.stringify(value)}`);
    }
  }
  return [...lines, ...textual.map((line) => (line.length > 400 ? `${line.slice(0, 400)} ...` : line)), ...bullets('Notes', r.notes ?? r.note)];
}

/** The reliability curve has no report: its points are the body. */
function reliabilityReport(output: StatsOutput): Obj {
  return { k_max: output.k_max };
}

function reliabilityLines(output: StatsOutput): string[] {
  const points = Array.isArray(output.points) ? (output.points as Obj[]) : [];
  return [`k = 1..${String(output.k_max)}`, ...points.map((p) => `k = ${p.k}: ${withCi(`pass^${p.k}`, p.pass_pow_k, p.pass_pow_k_ci95, 8)}; ${withCi(`pass@${p.k}`, p.pass_at_k, p.pass_at_k_ci95, 8)} (${p.n_groups_at_k} tasks)`)];
}

export function printStats(kind: StatName, output: StatsOutput): string {
  const r = output.report ?? reliabilityReport(output);
  const body =
    kind === 'pass_at' ? passAtLines(r)
    : kind === 'curriculum' ? curriculumLines(r)
    : kind === 'delta_report' ? deltaLines(r)
    : kind === 'compare_runs' ? compareLines(r)
    : kind === 'reliability' ? reliabilityLines(output)
    : kind === 'judge_trust' ? judgeTrustLines(r)
    : kind === 'hack_scan' ? hackScanLines(r)
    : genericLines(r);
  const extra = kind === 'decontaminate' && output.kept_indices ? [`kept ${output.kept_indices.length} rows`] : [];
  return [...body, ...extra, ...bullets('Warnings', r.warnings)].join('\n') + '\n';
}
