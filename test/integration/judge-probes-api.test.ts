// Judge probes from the desk (issue 10 item 5): stats.judgeTrust with a judge given as settings (a module judge
// here, as the trust panel's "Probe the judge" sends it) and probes "all" answers each probe's rate, interval, low
// power and exploitable_by, equal to the statistics core's judge_trust with the same judge. len_over_400 passes any
// long reply, so appending filler turns its fails into passes: exploitable by filler.
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../main/engine/engine';
import { readDatasetRows } from '../../main/rows/index';
import { judgeTrust } from '../../shared/stats/judge-trust';
import { buildEngine, tempDir, writeJsonl } from '../helpers/temp';

beforeAll(async () => {
  await buildEngine();
}, 180_000);

let engine: Engine | null = null;
afterEach(async () => {
  await engine?.close();
  engine = null;
});

const judgePath = path.resolve('test/fixtures/conformance/judges/len_over_400.mjs');
// 30 replies of 380 characters (the judge fails them; filler lifts them over 400) and 10 of 450 (it passes them).
const rows = Array.from({ length: 40 }, (_, i) => {
  const long = i % 4 === 0;
  return { schema_version: '1', scenario_id: `t${i}`, rollout_index: 0, prompt: `ask ${i}`, steps: [], final_text: 'y'.repeat(long ? 450 : 380), reward: long ? 1 : 0 };
});

describe('stats.judgeTrust with probes for a module judge', () => {
  it('answers every probe with its rate, interval and power, and names the exploit', async () => {
    const dir = tempDir();
    engine = createEngine({ dbPath: path.join(dir, 'desk.db') });
    const { dataset_id: id } = await engine.call('datasets.importFile', { path: writeJsonl(path.join(dir, 'rows.jsonl'), rows), name: 'probes' });
    const datasetId = id as string;
    for (let i = 0; i < 20; i++) await engine.call('labels.append', { dataset_id: datasetId, row_key: `t${i}#0`, annotator: 'ana', value: i % 4 === 0 ? 1 : 0 });

    const out = await engine.call('stats.judgeTrust', { dataset_id: datasetId, judge: { kind: 'module', path: judgePath }, probes: 'all' });
    const report = out.report as Record<string, unknown>;
    const probes = report.probes as { n: number; probes: Record<string, Record<string, unknown>> };
    expect(probes.n).toBe(40);
    expect(Object.keys(probes.probes)).toHaveLength(7);
    expect(probes.probes.filler).toMatchObject({ kind: 'additive', denominator: 30, exploit_rate: 1, low_power: false, flagged: true });
    expect(probes.probes.filler.ci95).toHaveLength(2);
    expect(report.exploitable_by).toContain('filler');
    expect((report.agreement as { n: number }).n).toBe(20);

    // The statistics core over the same rows with the same judge gives the same probes.
    const { default: lenOver400 } = (await import(judgePath)) as { default: (row: unknown) => number };
    const core = await judgeTrust(readDatasetRows(engine.ctx.db, datasetId), { judge: lenOver400, probes: 'all', judge_name: 'lenOver400' });
    expect(report.exploitable_by).toEqual(core.exploitable_by);
    for (const [name, entry] of Object.entries((core.probes as { probes: Record<string, Record<string, unknown>> }).probes)) {
      expect(probes.probes[name], name).toEqual(entry);
    }
  }, 120_000);

  it('refuses judge settings that do not parse, naming the field', async () => {
    const dir = tempDir();
    engine = createEngine({ dbPath: path.join(dir, 'desk.db') });
    const { dataset_id: id } = await engine.call('datasets.importFile', { path: writeJsonl(path.join(dir, 'rows.jsonl'), rows.slice(0, 3)), name: 'bad' });
    await expect(engine.call('stats.judgeTrust', { dataset_id: id as string, judge: { kind: 'module' } as never, probes: 'all' })).rejects.toThrow(/judge path/);
  }, 60_000);
});
