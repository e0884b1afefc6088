// The sweep's printed table (platform-api.md §6 "Ranked table"): free text, the app's own words.
import { pyFixed, pyFloatRepr } from '../stats/py-format';
import type { SweepNoise, SweepReport } from './sweep-report';

const num = (x: number) => pyFloatRepr(x);

export function sweepText(r: Omit<SweepReport, 'text'>, noise: SweepNoise, minAsks: number, firstLabel: string): string {
  let head = `harness sweep on ${r.behavior}: ${r.variants.length} variants, ${r.n_asks} asks x ${r.k}, test ${r.test_version}`;
  if (r.noise_floor !== null) head += `, noise floor ${r.noise_floor}`;
  const j = r.judge as { agreement?: number; humanN?: number } | null;
  if (j && typeof j.agreement === 'number') head += `, judge agreement ${pyFixed(j.agreement, 2)} on ${j.humanN ?? '?'}`;
  const wLabel = Math.max(7, ...r.variants.map((v) => v.label.length)) + 2;
  const wModel = Math.max(5, ...r.variants.map((v) => (v.model ?? '-').length)) + 2;
  const lines = [head, `  ${'variant'.padEnd(wLabel)}${'model'.padEnd(wModel)}${'harness'.padEnd(14)}${'pass@1'.padStart(7)}${'±'.padStart(6)}${'asks'.padStart(6)}${'graded'.padStart(8)}`];
  for (const v of r.variants) {
    const [s, ci, n] = v.scores[r.behavior];
    lines.push(`  ${v.label.padEnd(wLabel)}${(v.model ?? '-').padEnd(wModel)}${v.harness.padEnd(14)}${num(s).padStart(7)}${num(ci).padStart(6)}${String(n).padStart(6)}${String(v.graded_rows).padStart(8)}`);
  }
  if (r.noise_floor !== null && noise.df !== null && noise.runStd !== null) {
    lines.push(`  noise floor ${r.noise_floor} = t(df=${noise.df}) x run_std ${noise.runStd} x sqrt(2) x 100, from ${noise.runs} scorings of ${firstLabel}`);
    if (noise.runs < 3) lines.push(`  ${noise.runs} scorings give a difference, not a distribution: t(df=1) = 12.706 makes the floor wide; score the first variant 3 or more times`);
  } else {
    lines.push('  no noise floor: the first variant was scored once (noise_runs 1)');
  }
  const asks = new Set(r.variants.map((v) => v.scores[r.behavior][2]));
  if (asks.size > 1) lines.push('  the arms were scored on different ask counts (partial rewards count as graded, not in pass@1): they are never compared');
  if (r.n_asks < minAsks) lines.push(`  ${r.n_asks} asks is under ${minAsks}: the verdict stays unproven until the frozen test has that many (a new set is a new test name)`);
  const top = r.variants[0];
  if (r.best !== null) lines.push(`  winner: ${r.best} clears every other variant and the noise floor`);
  else if (top) lines.push(`  no winner: ${top.label} leads but does not clear every other variant and the noise floor; about the same (more asks or a bigger change)`);
  return lines.join('\n');
}
