// The SDK's printed headline word of a delta_report (stats-semantics §8, step 19): one function for the CLI and the compare screen.
type Obj = Record<string, unknown>;

/** The SDK's printed headline word (stats-semantics 8, step 19). */
export function headlineWord(r: Obj): string {
  const causes = Array.isArray(r.not_comparable) ? (r.not_comparable as string[]) : [];
  if (causes.length) return `${r.ok ? '' : 'FAIL: '}NOT COMPARABLE (${causes.join(', ')})`;
  if (!r.ok) return 'FAIL';
  const words: Record<string, string> = {
    moved_unreplicated: 'INCONCLUSIVE (no re-run floor: re-run each side to confirm)',
    moved: 'PASS',
    within_eval_noise: 'NO DIFFERENCE (within eval noise)',
    no_change_detected: 'NO DIFFERENCE',
    insufficient_data: 'INSUFFICIENT DATA',
    moved_the_wrong_way: 'FAIL',
    target_not_measured: 'TARGET NOT MEASURED',
    unresolved: 'UNRESOLVED',
  };
  return words[String(r.target_verdict ?? r.headline_verdict)] ?? String(r.headline_verdict ?? 'n/a').toUpperCase();
}

