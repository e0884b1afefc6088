// eval_sourced (the SDK's optimize.eval_sourced): rows whose reward came from evaluate(), lineage.source == "eval".
// Training on a held-out scorer's rewards makes the number you report the one you optimised; every selector says so.
type Obj = Record<string, unknown>;

export function isEvalSourced(row: unknown): boolean {
  if (typeof row !== 'object' || row === null || Array.isArray(row)) return false;
  const lineage = (row as Obj).lineage;
  return typeof lineage === 'object' && lineage !== null && (lineage as Obj).source === 'eval';
}

export function evalSourcedWarning(count: number, unit: string): string {
  return `${count} ${unit} carry rewards from evaluate() (lineage.source == 'eval'); training on them turns the held-out scorer into the reward model`;
}
