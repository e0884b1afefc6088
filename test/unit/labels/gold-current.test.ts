// Gold from the current labels: one vote per annotator per row (their latest record), a withdrawal (null) takes
// the vote back, and the result is attach_labels' derivation over the row's own gold_labels plus those votes.
import { describe, expect, it } from 'vitest';
import { currentLabels, goldStateFromOwn, goldStateWith, withGold } from '../../../main/rows/gold';
import { goldStateOf } from '../../../main/rows/columns';
import type { LabelRecord } from '../../../main/rows/labels';
import { attachLabels } from '../../../shared/stats/labels';

let nextId = 1;
const rec = (annotator: string, value: 0 | 1 | null, kind: LabelRecord['kind'] = 'human', note: string | null = null): LabelRecord => ({
  label_id: nextId++, dataset_id: 'd', row_key: 'r#0', annotator, kind, value, note, created_at: '2026-01-01T00:00:00.000Z', ts: 1767225600,
});
const row = () => ({ scenario_id: 'r', rollout_index: 0, prompt: 'p', final_text: 'f', reward: 1 });

describe('gold from current labels', () => {
  it('keeps each annotator latest record and drops withdrawals', () => {
    const labels = [rec('ana', 1), rec('ben', 0), rec('ana', 0), rec('ben', null), rec('cho', 1)];
    expect(currentLabels(labels).map((l) => [l.annotator, l.value])).toEqual([['ana', 0], ['cho', 1]]);
  });

  it('a relabel replaces the vote instead of adding one', () => {
    const stamped = withGold(row(), [rec('ana', 1), rec('ana', 0)]);
    expect(stamped).toMatchObject({ gold_reward: 0, gold_kind: 'human' });
    expect(stamped.gold_labels).toHaveLength(1);
  });

  it('an undo (withdrawal) leaves no gold when it was the only vote', () => {
    const stamped = withGold(row(), [rec('ana', 1), rec('ana', null)]);
    expect(stamped).not.toHaveProperty('gold_reward');
    expect(stamped).not.toHaveProperty('gold_labels');
  });

  it('equals attach_labels over the imported gold_labels plus the current votes (tie, kinds)', () => {
    const imported = { ...row(), gold_reward: 1, gold_kind: 'program', gold_labels: [{ label: 1, annotator: 'checker', kind: 'program', ts: 1 }] };
    const labels = [rec('ana', 1), rec('bot', 0, 'model'), rec('ana', 0), rec('eve', 1), rec('eve', null)];
    const ours = withGold(structuredClone(imported), labels);
    const { rows } = attachLabels([structuredClone(imported)], [
      { key: 'r#0', label: 0, annotator: 'bot', kind: 'model', ts: 1767225600 },
      { key: 'r#0', label: 0, annotator: 'ana', kind: 'human', ts: 1767225600 },
    ]);
    expect(ours).toEqual(rows[0]);
    expect(ours).toMatchObject({ gold_reward: 0, gold_kind: 'model' }); // program + human + model: the one untrusted kind
    // A 1-1 tie removes the gold the row arrived with.
    const tie = withGold(structuredClone(imported), [rec('ana', 0)]);
    expect(tie).not.toHaveProperty('gold_reward');
    expect(tie).not.toHaveProperty('gold_kind');
  });

  it('derives the same gold from the row\'s own gold_labels and arrived state as from the whole row', () => {
    const own = [{ label: 1, annotator: 'checker', kind: 'program', ts: 1 }];
    const rows: Array<Record<string, unknown>> = [row(), { ...row(), gold_reward: 1, gold_kind: 'program', gold_labels: own }, { ...row(), gold_reward: 0, gold_kind: 'human' }];
    const histories = [[], [rec('ana', 1)], [rec('ana', 0)], [rec('ana', 1), rec('ana', null)], [rec('ana', 0), rec('bot', 0, 'model'), rec('eve', 1)]];
    for (const whole of rows) {
      const ownLabels = Array.isArray(whole.gold_labels) ? JSON.stringify(whole.gold_labels) : null;
      for (const labels of histories) expect(goldStateFromOwn(ownLabels, goldStateOf(whole), labels)).toBe(goldStateWith(JSON.stringify(whole), labels));
    }
  });
});
