// drop_privileged_leaks (the SDK's score/optimize.py): both selectors first drop the rows whose reply quotes their own
// privileged block, so a selection never keeps a row the export would refuse. Reads the facts' leak check.
export interface LeakFacts {
  leak: { field: string; needle: string } | null;
  checkedLeak: boolean;
  scenarioId: unknown;
  rolloutIndex: unknown;
}

export interface LeakSummary {
  checked: boolean;
  n_checked: number;
  n_dropped: number;
  leaked: Array<{ scenario_id: unknown; rollout_index: unknown; field: string; needle: string }>;
}

export class LeakCollector {
  private nChecked = 0;
  private nDropped = 0;
  private readonly leaked: LeakSummary['leaked'] = [];

  /** Whether the row is dropped (it quotes its block); counts the rows that could be checked. */
  drops(f: LeakFacts): boolean {
    if (!f.checkedLeak) return false;
    this.nChecked++;
    if (!f.leak) return false;
    this.nDropped++;
    if (this.leaked.length < 20) this.leaked.push({ scenario_id: f.scenarioId, rollout_index: f.rolloutIndex, ...f.leak });
    return true;
  }

  summary(): LeakSummary {
    return { checked: this.nChecked > 0, n_checked: this.nChecked, n_dropped: this.nDropped, leaked: [...this.leaked] };
  }
}
