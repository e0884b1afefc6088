// The statistic registry: every surface (API schema, CLI flags, conformance binding, worker job) read from one entry.
import { z } from '../../../shared/schema/zod';
import { describe, expect, it } from 'vitest';
import { api } from '../../../shared/api/index';
import { statisticSchemas } from '../../../shared/api/stats';
import { statistic, rowsOf, statistics, type AnyStatistic } from '../../../shared/stats/registry/index';
import { passAt } from '../../../shared/stats/pass-at';
import { checkParams, flagsToParams, parseArgsOptions, allStatsSubcommands, statsSubcommand, subcommandFor } from '../../../main/cli/stats-flags';
import { caseFunctions } from '../../../main/conformance/functions';
import { runStatsJob } from '../../../main/stats-workers/jobs';

const rows = Array.from({ length: 40 }, (_, i) => ({ scenario_id: `t${i % 10}`, rollout_index: Math.floor(i / 10), prompt: 'p', final_text: 'f', steps: [], reward: (i * 7) % 3 === 0 ? 1 : 0 }));

describe('the statistic registry', () => {
  it('names each statistic once on every surface, and the API has one method per statistic', () => {
    for (const key of ['name', 'method', 'command'] as const) expect(new Set(statistics.map((s) => s[key])).size).toBe(statistics.length);
    for (const stat of statistics) {
      expect(stat.method in api).toBe(true);
      const { input } = statisticSchemas(stat);
      for (const source of stat.sources) expect(Object.keys(input.shape)).toContain(source.key);
      expect(api[stat.method as keyof typeof api].input).toBe(input);
    }
    expect(allStatsSubcommands().map((sub) => sub.name)).toEqual(statistics.map((s) => s.command));
  });

  it('derives CLI flags from the zod types, with the declared overrides', () => {
    const sub = (name: string) => statsSubcommand(name)!;
    expect(sub('pass-at').flags.k.type).toBe('int-or-null');
    expect(sub('pass-at').flags['min-k'].type).toBe('int');
    expect(sub('curriculum').flags.band.type).toBe('pair');
    expect(sub('curriculum').flags.solved.type).toBe('number');
    expect(sub('delta').flags.by.type).toBe('by');
    expect(sub('judge-trust').flags.judge.type).toBe('string');
    expect(parseArgsOptions(sub('decontaminate')).against).toEqual({ type: 'string', multiple: true });
    expect(sub('holdout-size').flags.rows.key).toBe('before');
    expect(sub('holdout-size').usage).toMatch(/^holdout-size --effect X \[--base X\]/);
    expect(sub('eval-variance').usage).toMatch(/^eval-variance RUN \[RUN \.\.\.\]/);
  });

  it('checks the API ranges on the command line, naming the flag', () => {
    const holdout = statsSubcommand('holdout-size')!;
    expect(() => checkParams(holdout, flagsToParams(holdout, { effect: '0.05', base: '1.5' }))).toThrow('--base must be between 0 and 1 (got 1.5)');
    expect(() => checkParams(holdout, flagsToParams(holdout, { effect: '1' }))).toThrow(/--effect must be strictly between 0 and 1/);
    expect(() => checkParams(holdout, {})).toThrow(/holdout-size needs --effect/);
    expect(() => checkParams(holdout, flagsToParams(holdout, { effect: '0.05', base: '0' }))).not.toThrow();
  });

  it('binds conformance cases from the declaration (positional names, sources, what the SDK returns)', async () => {
    const out = await caseFunctions.pass_at({ args: [rows, 2], kwargs: { min_k: 2 } }, {});
    const direct = passAt(rows, { k: 2, min_k: 2 });
    expect(out.result).toEqual(JSON.parse(JSON.stringify({ ...direct, per_task: undefined })));
    expect((out.aux as { per_task: unknown }).per_task).toEqual(direct.per_task);
    const variance = await caseFunctions.eval_variance({ args: [rows.slice(0, 20), rows.slice(20)], kwargs: {} }, {});
    expect((variance.result as { n_runs: number }).n_runs).toBe(2);
  });

  it('adding a statistic is one entry: its API schema, flags and job come from it', async () => {
    const meanReward = statistic({
      name: 'mean_reward',
      method: 'stats.meanReward',
      command: 'mean-reward',
      summary: 'The mean reward of the rows',
      sources: [{ key: 'dataset_id', as: 'rows', describe: 'the rows' }],
      positional: ['rows', 'scale'],
      reads: ['reward'],
      schemas: (zod) => ({
        params: zod.object({ scale: zod.number().gt(0, 'must be above 0').optional() }),
        output: zod.object({ report: zod.object({ mean: zod.number() }) }),
      }),
      compute: (input) => {
        const list = rowsOf(input, 'rows') as Array<{ reward: number }>;
        return { report: { mean: (list.reduce((s, r) => s + r.reward, 0) / list.length) * ((input.params.scale as number) ?? 1) } };
      },
    }) as unknown as AnyStatistic;
    const { input, output } = statisticSchemas(meanReward);
    expect(input.safeParse({ dataset_id: 'ds', scale: 2 }).success).toBe(true);
    expect(input.safeParse({ dataset_id: { path: '/abs/rows.jsonl' } }).success).toBe(true);
    expect(input.safeParse({ dataset_id: 'ds', scale: -1 }).success).toBe(false);
    const sub = subcommandFor(meanReward);
    expect(sub.usage).toBe('mean-reward SOURCE [--scale X]');
    expect(flagsToParams(sub, { scale: '2' })).toEqual({ scale: 2 });
    const result = await meanReward.compute({ sources: { rows }, params: { scale: 2 }, options: {} });
    expect(output.safeParse({ ...result, job_id: 'j' }).success).toBe(true);
    expect(z.object({ report: z.object({ mean: z.number() }) }).parse(result).report.mean).toBeCloseTo((2 * rows.filter((r) => r.reward).length) / rows.length, 12);
  });

  it('runs a job by the registry: sources resolved by name, the SDK arguments passed as given', async () => {
    const resolved: unknown[] = [];
    const out = await runStatsJob({ kind: 'compare_runs', sources: { a: { rows }, b: { dataset_id: 'b' } }, params: { n_boot: 100 } }, (source) => {
      resolved.push(source);
      return rows;
    });
    expect(resolved).toEqual([{ rows }, { dataset_id: 'b' }]);
    expect(out.report.n_paired).toBe(10);
    await expect(runStatsJob({ kind: 'compare_runs', sources: { a: { rows } }, params: {} }, () => rows)).rejects.toThrow(/the b rows are missing/);
  });
});
