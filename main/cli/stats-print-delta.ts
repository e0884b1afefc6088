// Readable delta_report and compare_runs output: the headline word, a metric table, then every warning.
import { headlineWord } from '../../shared/stats/delta-headline';
import { fmt } from './stats-print';

export { headlineWord };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const signed = (v: unknown) => (typeof v === 'number' ? `${v >= 0 ? '+' : ''}${v.toFixed(3)}` : 'n/a');
const list = (v: unknown) => (Array.isArray(v) && v.length ? v.join(', ') : 'none');

function metricRow(name: string, m: Obj): string {
  const noise = typeof m.noise_band === 'number' ? `band ${fmt(m.noise_band)}${m.within_noise ? ' (within)' : ''}` : '';
  return `  ${name.padEnd(24)} ${fmt(m.mean_a).padStart(7)} ${fmt(m.mean_b).padStart(7)} ${signed(m.delta).padStart(8)}  ${fmt(m.ci95).padEnd(18)} ${String(m.gain_verdict ?? m.verdict).padEnd(24)} ${noise}`.trimEnd();
}

export function deltaLines(r: Obj): string[] {
  const metrics = isObj(r.metrics) ? r.metrics : {};
  const lines = [
    headlineWord(r),
    `Target ${r.target ?? '(none)'}: ${r.target_verdict ?? r.headline_verdict}, delta ${signed(r.target_delta)} (95% ${fmt(r.target_ci95)})`,
    `${r.n_paired_tasks} paired tasks, ${r.n_unpaired_tasks} unpaired; eval runs ${JSON.stringify(r.eval_runs)}; family error ${fmt(r.family_error, 4)}`,
    '',
    `  ${'metric'.padEnd(24)} ${'before'.padStart(7)} ${'after'.padStart(7)} ${'delta'.padStart(8)}  ${'95% interval'.padEnd(18)} ${'verdict (as a gain)'.padEnd(24)}`,
    ...Object.entries(metrics).map(([name, m]) => metricRow(name, isObj(m) ? m : {})),
    '',
    `Improved: ${list(r.improved)}. Regressions: ${list(r.regressions)}. Slipped: ${list(r.slipped)}.`,
  ];
  if (typeof r.noise_band === 'number') lines.push(`Noise band ${fmt(r.noise_band)} (${r.noise_rule}), run_std ${fmt(r.run_std, 4)} from ${r.run_std_source}`);
  if (r.detectable_effect !== null && r.detectable_effect !== undefined) {
    lines.push(`These paired tasks can detect about ${signed(r.detectable_effect)}${r.tasks_needed ? `; this delta needs about ${r.tasks_needed} tasks (sd from ${r.tasks_needed_source})` : ''}`);
  }
  const groups = isObj(r.groups) ? r.groups : null;
  if (groups && Object.keys(groups).length) {
    lines.push('', `Slices by ${r.by} (${r.by_source ?? 'given'}):`);
    for (const [name, g] of Object.entries(groups)) lines.push(metricRow(name, isObj(g) ? g : {}));
    if (Array.isArray(r.groups_weak) && r.groups_weak.length) lines.push(`Weak slices: ${list(r.groups_weak)}`);
  }
  return lines;
}

export function compareLines(r: Obj): string[] {
  return [
    `${r.metric}: ${r.verdict} (${r.paired ? `paired on ${r.n_paired} tasks` : `unpaired, ${r.n_used} tasks a side`})`,
    `mean a ${fmt(r.mean_a)}, mean b ${fmt(r.mean_b)}, delta ${signed(r.delta)}, ${Math.round(Number(r.level) * 100)}% interval ${fmt(r.ci95)}${r.p_value !== null && r.p_value !== undefined ? `, sign-flip p = ${fmt(r.p_value, 4)}` : ''}`,
    `${r.n_only_a} tasks only in a, ${r.n_only_b} only in b; paired share ${fmt(r.paired_share)}`,
    ...(typeof r.note === 'string' && r.note ? [`Note: ${r.note}`] : []),
  ];
}
