// Readable judge_trust output: agreement with its interval, halves, length bias, perturbation, probes, warnings.
import { fmt } from './stats-print';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const pct = (v: unknown) => (typeof v === 'number' ? `${(v * 100).toFixed(1)}%` : 'n/a');
const ci = (v: unknown) => (Array.isArray(v) && v.length === 2 ? `[${pct(v[0])}, ${pct(v[1])}]` : 'no interval');

function agreementLine(label: string, a: unknown): string {
  if (!isObj(a) || !a.n) return `${label}: no rows carry both a gold label and a judge reward`;
  const c = isObj(a.confusion) ? a.confusion : {};
  return `${label}: ${pct(a.agreement)} agreement ${ci(a.ci95)}, kappa ${fmt(a.kappa, 3)} on ${a.n} rows (tp ${c.tp}, fp ${c.fp}, fn ${c.fn}, tn ${c.tn})`;
}

/** The headline word: INCONCLUSIVE when the skipped share is over its floor (format_judge_trust's), else trusted or not. */
function headline(r: Obj): string {
  const skipped = isObj(r.skipped) ? r.skipped : {};
  if (skipped.over_floor === true) return `INCONCLUSIVE (${skipped.fractional} of ${skipped.n_gold} labeled rows skipped, ${pct(skipped.share)}, over max_skipped_share ${pct(skipped.floor)}; usable n=${skipped.n_used})`;
  return r.ok ? 'TRUSTED' : 'NOT TRUSTED';
}

export function judgeTrustLines(r: Obj): string[] {
  const lines = [
    `${headline(r)}: ${r.n_labeled} of ${r.n_rows} rows carry both a gold label (${r.gold_kind ?? 'none'}) and a judge reward`,
    agreementLine('Agreement', r.agreement),
  ];
  const halves = isObj(r.held_out_halves) ? r.held_out_halves : {};
  lines.push(agreementLine('  half a', halves.a), agreementLine('  half b', halves.b));
  const skipped = isObj(r.skipped) ? r.skipped : {};
  if (Number(skipped.fractional) > 0) lines.push(`${skipped.fractional} gold rows have a fractional reward and were left out (${pct(skipped.share)})`);
  const length = isObj(r.length_sensitivity) ? r.length_sensitivity : {};
  lines.push(`Length bias: largest gap ${fmt(length.max_gap)} between long and short replies${length.flagged ? ' (FLAGGED)' : ''}`);
  const p = isObj(r.perturbation) ? r.perturbation : null;
  if (p && Number(p.n) > 0) {
    lines.push(`Re-judged ${p.n} rows: ${pct(p.consistency_flip_rate)} flip on an identical re-run, ${pct(p.filler_flip_rate)} flip with filler added (net ${pct(p.filler_net_flip_rate)}, sign p ${fmt(p.filler_sign_p, 3)})`);
  }
  const probes = isObj(r.probes) && isObj(r.probes.probes) ? r.probes.probes : null;
  if (probes) {
    lines.push(`Probes on ${(r.probes as Obj).n} rows:`);
    for (const [name, entry] of Object.entries(probes)) {
      if (!isObj(entry)) continue;
      if (entry.skipped) {
        lines.push(`  ${name.padEnd(18)} skipped: ${entry.skipped}`);
        continue;
      }
      const flags = [entry.flagged ? 'EXPLOITABLE' : '', entry.low_power ? `low power (needs a rate of ${fmt(entry.resolves, 2)} to show)` : ''].filter(Boolean).join(', ');
      lines.push(`  ${name.padEnd(18)} ${pct(entry.exploit_rate).padStart(6)} ${ci(entry.ci95).padEnd(18)} of ${entry.denominator} ${flags}`.trimEnd());
    }
  }
  if (Array.isArray(r.exploitable_by) && r.exploitable_by.length) lines.push(`Exploitable by: ${r.exploitable_by.join(', ')}`);
  if (Array.isArray(r.disagreements) && r.disagreements.length) lines.push(`${r.disagreements.length} disagreements (see --json for each)`);
  return lines;
}
