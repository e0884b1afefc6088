// stats.judgeTrust with labeled_only (the labeling desk's live panel) equals judge_trust over the whole dataset,
// apart from the two counts of all rows (n_rows, agreement.n_skipped); the worker reads only the gold rows.
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../main/engine/engine';
import { readDatasetRows, readLabeledRows } from '../../main/rows/index';
import { judgeTrust } from '../../shared/stats/judge-trust';
import { buildEngine, tempDir, writeJsonl } from '../helpers/temp';

// The stats workers run from the engine bundle.
beforeAll(async () => {
  await buildEngine();
}, 180_000);

let engine: Engine | null = null;
afterEach(async () => {
  await engine?.close();
  engine = null;
});

const rows = Array.from({ length: 300 }, (_, i) => ({
  schema_version: '1', scenario_id: `t${i % 37}`, rollout_index: Math.floor(i / 37), prompt: `p${i}`, steps: [], final_text: 'x'.repeat(20 + (i % 50)), reward: i % 3 === 0 ? 0 : 1,
  ...(i === 5 ? { gold_reward: 1, gold_kind: 'human', gold_labels: [{ label: 1, annotator: 'old', kind: 'human', ts: 1 }] } : {}),
}));

function withoutCounts(report: Record<string, unknown>) {
  const { n_rows: _n, agreement, ...rest } = report as { n_rows: unknown; agreement: Record<string, unknown> };
  const { n_skipped: _s, ...keep } = agreement;
  return { ...rest, agreement: keep };
}

describe('judge trust over the labeled rows only', () => {
  it('matches judge_trust on every row, after labels, a relabel and a withdrawal', async () => {
    const dir = tempDir();
    engine = createEngine({ dbPath: path.join(dir, 'desk.db') });
    const { dataset_id: id } = await engine.call('datasets.importFile', { path: writeJsonl(path.join(dir, 'rows.jsonl'), rows), name: 'trust' });
    const datasetId = id as string;
    for (let i = 0; i < 120; i++) {
      const truth = i % 3 === 0 ? (i % 9 === 0 ? 1 : 0) : i % 11 === 0 ? 0 : 1;
      await engine.call('labels.append', { dataset_id: datasetId, row_key: `t${i % 37}#${Math.floor(i / 37)}`, annotator: 'ana', value: truth as 0 | 1 });
    }
    await engine.call('labels.append', { dataset_id: datasetId, row_key: 't1#0', annotator: 'ana', value: 0 });
    await engine.call('labels.append', { dataset_id: datasetId, row_key: 't2#0', annotator: 'ana', value: null });
    expect(readLabeledRows(engine.ctx.db, datasetId)).toHaveLength(119);
    const live = await engine.call('stats.judgeTrust', { dataset_id: datasetId, labeled_only: true });
    const whole = await judgeTrust(readDatasetRows(engine.ctx.db, datasetId));
    expect(withoutCounts(live.report)).toEqual(withoutCounts(JSON.parse(JSON.stringify(whole))));
    expect((live.report.agreement as { n: number }).n).toBe(119);
    expect(live.report.n_rows).toBe(119);
    // The worker keeps the labeled rows it parsed: after one more label and a relabel it still equals the core.
    await engine.call('labels.append', { dataset_id: datasetId, row_key: 't10#3', annotator: 'ben', value: 0 });
    await engine.call('labels.append', { dataset_id: datasetId, row_key: 't3#0', annotator: 'ana', value: 1 });
    const again = await engine.call('stats.judgeTrust', { dataset_id: datasetId, labeled_only: true });
    const wholeAgain = await judgeTrust(readDatasetRows(engine.ctx.db, datasetId));
    expect(withoutCounts(again.report)).toEqual(withoutCounts(JSON.parse(JSON.stringify(wholeAgain))));
    expect((again.report.agreement as { n: number }).n).toBe(120);
  }, 60_000);
});
