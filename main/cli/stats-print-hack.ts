// Readable hack_scan output: the verdict, what the asks can move, the floor, and the ranked features.
type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const pct = (v: unknown) => (typeof v === 'number' ? `${Math.round(v * 100)}%` : 'n/a');
const signed = (v: unknown) => (typeof v === 'number' ? `${v >= 0 ? '+' : ''}${v.toFixed(3)}` : 'n/a');

const VERDICT: Record<string, string> = {
  train: 'TRAIN: the reward pays for what it should',
  reward_hack: 'REWARD HACK: the reward is best explained by something not endorsed',
  pool_exhausted: 'POOL EXHAUSTED: too many asks already pass on every rollout',
  no_signal: 'NO SIGNAL: nothing clears the noise floor',
  degenerate: 'DEGENERATE: too few distinct rollouts per ask to tell features apart',
  unknown: 'UNKNOWN: the scan could not rank within ask',
};

export function hackScanLines(r: Obj): string[] {
  const s = isObj(r.support) ? r.support : {};
  const lines = [
    VERDICT[String(r.regime)] ?? String(r.regime),
    `${r.n_graded} graded rollouts of ${r.n_rows} rows, ${r.n_groups} asks, ${r.rollouts_per_group} per ask at the median; ` +
      `mixed ${pct(s.mixed)}, all-pass ${pct(s.sat)}, all-fail ${pct(s.dead)}, capacity ${typeof s.capacity === 'number' ? s.capacity.toFixed(2) : 'n/a'}`,
  ];
  if (typeof r.tau === 'number') lines.push(`noise floor tau ${r.tau.toFixed(3)} from ${r.n_perm} within-ask shuffles; ${r.n_above_floor} of ${r.n_features} features above it`);
  const features = Array.isArray(r.features) ? (r.features as Obj[]) : [];
  if (features.length) {
    lines.push(`   ${'feature'.padEnd(44)}${'within'.padStart(8)}${'pooled'.padStart(8)}${'rows'.padStart(7)}`);
    for (const f of features) {
      const name = String(f.name);
      lines.push(`${f.above_floor ? '*' : ' '}${f.endorsed ? 'e' : ' '} ${(name.length > 43 ? `${name.slice(0, 42)}~` : name).padEnd(44)}${signed(f.rho).padStart(8)}${signed(f.pooled).padStart(8)}${String(f.n_obs).padStart(7)}`);
      const aliases = Array.isArray(f.aliases) ? (f.aliases as string[]) : [];
      if (aliases.length) lines.push(`     the same rows as: ${aliases.slice(0, 4).join(', ')}${aliases.length > 4 ? ` and ${aliases.length - 4} more` : ''}`);
    }
    lines.push('(* above the floor, e endorsed)');
  }
  if (typeof r.integrity === 'number') lines.push(`integrity ${r.integrity.toFixed(2)}: the share of the above-floor signal on an endorsed feature`);
  if (Array.isArray(r.collinear) && r.collinear.length && r.degenerate) lines.push(`collinear with the reward: ${(r.collinear as string[]).join(', ')}`);
  return lines;
}
