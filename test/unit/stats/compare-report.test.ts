// compare_report (one job for the compare screen and `while-desk compare`) must give exactly what the three calls
// it replaces gave: delta_report's report, and the paired table of the two pass_at per_task maps, key by key.
import { describe, expect, it } from 'vitest';
import { deltaReport } from '../../../shared/stats/delta-report';
import { fromTaskColumns, pairedTaskTable, toTaskColumns } from '../../../shared/stats/paired-tasks';
import { passAt, perTaskRates } from '../../../shared/stats/pass-at';
import { runStatsJob } from '../../../main/stats-workers/jobs';

function lcg(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/** A run: `tasks` tasks x 4 rollouts, some tasks missing, odd keys (numbers, prompts only), a few ungraded rows. */
function run(seed: number, tasks: number, shift: number) {
  const rand = lcg(seed);
  const rows: Array<Record<string, unknown>> = [];
  for (let t = 0; t < tasks; t++) {
    if (rand() < 0.05) continue;
    const p = Math.min(1, Math.max(0, rand() + shift));
    for (let r = 0; r < 4; r++) {
      const key = t % 11 === 0 ? { task_id: t } : t % 13 === 0 ? { prompt: `prompt ${t}` } : { scenario_id: `${t % 7 === 0 ? t : `task_${t}`}` };
      rows.push({ ...key, rollout_index: r, prompt: `prompt ${t}`, final_text: `reply ${t}`, steps: [], reward: rand() < 0.03 ? null : rand() < p ? 1 : 0, category: `c${t % 3}` });
    }
  }
  return rows;
}

describe('compare_report', () => {
  const before = run(1, 300, 0);
  const after = run(2, 300, 0.1);

  it('per_task rates are pass_at per_task, key by key and in the same order', () => {
    const full = passAt(before, { k: 4 }).per_task;
    const light = perTaskRates(before);
    expect(Object.keys(light)).toEqual(Object.keys(full));
    for (const key of Object.keys(full)) expect(light[key]).toBe(full[key]);
  });

  it('the job gives the delta report and the paired table of the calls it replaces', async () => {
    const params = { target: 'pass_at_1', must_not_regress: [], n_boot: 300 };
    const out = await runStatsJob({ kind: 'compare_report', sources: { before: { rows: before }, after: { rows: after } }, params }, (source) =>
      'rows' in source ? source.rows : [],
    );
    const report = deltaReport(before, after, params);
    const table = pairedTaskTable(passAt(before).per_task, passAt(after).per_task);
    expect(JSON.stringify(out.report)).toBe(JSON.stringify(report));
    expect(out.task_table).toEqual(toTaskColumns(table));
    expect(fromTaskColumns(out.task_table!)).toEqual(table); // the rows again, in order, each delta and status the same
    expect(out.task_table!.task).toEqual(table.tasks.map((t) => t.task));
    expect(table.n_paired).toBeGreaterThan(200);
    expect(table.n_regressed + table.n_improved).toBeGreaterThan(0);
  });
});
