// Every statistic declares the row fields it reads (registry `reads`), and the readers hand it only those: each must
// give the same output on rows cut to its fields as on whole rows, on every conformance case and on rows that carry
// every field a statistic might read (markers, slices, re-run ids, replies in messages only, qwen rewards, task ids).
// A statistic added to the registry is checked here as it is: a field it reads but does not declare changes its
// output on these rows.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bind, computeInput } from '../../../main/conformance/functions';
import { substitute } from '../../../main/conformance/run-cases';
import { projection, projectText } from '../../../main/rows/row-projection';
import { bindFold, readsFor, statisticNamed, statistics, type AnyStatistic, type SourceSpec } from '../../../shared/stats/registry/index';

type Obj = Record<string, unknown>;

const CASES = path.resolve(__dirname, '../../fixtures/conformance/cases');

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/** Rows with every field a statistic reads, and others it must not need (world, usage, steps). */
function richRows(seed: number, shift: number): Obj[] {
  const r = lcg(seed);
  const rows: Obj[] = [];
  for (let t = 0; t < 40; t++) {
    const p = r();
    for (let i = 0; i < (t % 6 === 0 ? 3 : 4); i++) {
      const reply = r() < 0.1 ? '' : r() < 0.1 ? '<think>x</think> ok' : `answer ${t}`;
      const row: Obj = {
        schema_version: '1',
        prompt: `task ${t}: please help`,
        steps: [{ tool: 'lookup', arguments: { id: t }, result: { ok: true } }],
        final_text: reply,
        messages: [{ role: 'user', content: `task ${t}` }, { role: 'assistant', content: reply || (r() < 0.5 ? 'from messages' : '') }],
        rollout_index: i,
        reward: r() < 0.05 ? null : r() < p + shift ? 1 : 0,
        judge_status: r() < 0.05 ? 'error' : 'ok',
        reason: r() < 0.5 ? 'because' : '',
        sampling: { temperature: 0.7, max_tokens: 512 },
        policy_version: `agent@v${shift}`,
        finish_reason: r() < 0.05 ? 'length' : 'stop',
        markers: { polite: r() < 0.8 ? 1 : 0, hedging: r(), ...(r() < 0.5 ? { rare: 1 } : {}) },
        category: `c${t % 3}`,
        lineage: { eval_run: i % 2, judge_version: 'j1' },
        world: { seed: t },
        usage: { input_tokens: 10, output_tokens: 5 },
        gold_reward: r() < 0.3 ? (r() < 0.5 ? 1 : 0) : undefined,
      };
      if (t % 5 === 0) row.slice = `s${t % 2}`;
      if (t % 7 === 0) {
        delete row.scenario_id;
        row.task_id = `tid${t}`;
      } else row.scenario_id = `t${t}`;
      if (t % 4 === 0) row.opener = 'How can I help?';
      if (t % 3 === 0) (row.logprob = -r() * 40, row.n_tokens = 20 + t);
      if (t % 8 === 0) (row.tool_trace = row.steps, delete row.steps, delete row.messages, row.grader_reason = 'cut off');
      row.score = r() < p ? r() : 0;
      if (t % 9 === 0) row.qwen_reward = r() < 0.5 ? 1 : 0;
      if (t % 11 === 0) row.eval_run = i % 3;
      rows.push(JSON.parse(JSON.stringify(row)) as Obj);
    }
  }
  return rows;
}

/** The parameters each statistic is run with on the rich rows (several where the fields read depend on them). */
const PARAMS: Record<string, Obj[]> = {
  pass_at: [{}, { k: 2 }],
  reliability: [{}],
  curriculum: [{}],
  compare_runs: [{}, { metric: 'marker:polite' }],
  delta_report: [{}, { by: 'category' }, { by: 'reason' }, { by: 'slice', must_not_regress: ['polite'], target: 'hedging' }, { markers: ['polite'], by: false }],
  compare_report: [{}, { by: 'category' }],
  eval_variance: [{}, { by: 'eval_run' }, { metric: 'marker:polite', by: 'category' }],
  holdout_size: [{ effect: 0.1 }],
  hack_scan: [{ n_perm: 20, seeds: 1 }, { reward: 'score', n_perm: 20, seeds: 1, top_k: 3 }],
  style_report: [{ n_boot: 200 }],
  refusal_report: [{}],
  trace_flag_report: [{ n_boot: 200 }],
  grounding_report: [{}],
  marker_summary: [{ n_boot: 200 }, { n_boot: 200, stamp: true }],
};

async function both(stat: AnyStatistic, kw: Obj): Promise<[string, string]> {
  const whole = await stat.compute(computeInput(stat, structuredClone(kw), false));
  const projected = await stat.compute(computeInput(stat, structuredClone(kw), true));
  return [JSON.stringify(whole), JSON.stringify(projected)];
}

describe('the fields each statistic declares', () => {
  it('are declared by every statistic: field names or whole rows', () => {
    for (const stat of statistics) {
      const reads = readsFor(stat.reads, { params: {}, options: {} });
      expect(reads === 'row' || (Array.isArray(reads) && reads.length > 0), stat.name).toBe(true);
    }
  });

  it('give every conformance case the same output on rows cut to them', async () => {
    let checked = 0;
    for (const name of fs.readdirSync(CASES).sort()) {
      const spec = JSON.parse(fs.readFileSync(path.join(CASES, name, 'case.json'), 'utf8')) as { function: string; call?: Obj; calls?: Obj[] };
      const stat = statisticNamed(spec.function);
      if (!stat || stat.reads === 'row') continue;
      for (const call of spec.calls ?? [spec.call ?? {}]) {
        const given = substitute(call, path.join(CASES, name), undefined) as { args?: unknown[]; kwargs?: Obj };
        const args = { args: given.args ?? [], kwargs: given.kwargs ?? {} };
        const variadic = stat.positional.find((p) => p.startsWith('*'));
        const kw = variadic ? { ...args.kwargs, [variadic.slice(1)]: args.args } : bind([...stat.positional], args);
        const [whole, projected] = await both(stat, kw);
        expect(projected, `${name} (${stat.name})`).toBe(whole);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(15);
  });

  it('give every statistic the same output on rows that carry every field, with the parameters that change what it reads', async () => {
    const a = richRows(1, 0);
    const b = richRows(2, 0.1);
    for (const stat of statistics) {
      if (stat.reads === 'row') continue;
      const runs = PARAMS[stat.name];
      expect(runs, `rows and parameters for ${stat.name}: add it to PARAMS`).toBeDefined();
      for (const params of runs) {
        const sources: Obj = {};
        for (const [i, spec] of (stat.sources as readonly SourceSpec[]).entries()) sources[spec.as] = spec.many ? [a, b] : i === 0 ? a : b;
        const [whole, projected] = await both(stat, { ...sources, ...params });
        expect(projected, `${stat.name} ${JSON.stringify(params)}`).toBe(whole);
      }
    }
  });

  it('give every fold the same output on transient rows, its rarely read fields found late, as compute on whole rows', async () => {
    const a = richRows(3, 0);
    const b = richRows(4, 0.1);
    let folded = 0;
    for (const stat of statistics) {
      if (stat.reads === 'row' || !stat.fold) continue;
      for (const params of PARAMS[stat.name]) {
        const given: Obj = {};
        for (const [i, spec] of (stat.sources as readonly SourceSpec[]).entries()) given[spec.as] = spec.many ? [a, b] : i === 0 ? a : b;
        const input = computeInput(stat, { ...given, ...params }, false);
        if (stat.fold.applies?.(input) === false) continue;
        const bound = bindFold(stat, input);
        if (bound.reads === 'row') continue;
        const p = projection(bound.reads, [], bound.rarely);
        const states: Record<string, unknown> = {};
        for (const name of stat.fold.sources) {
          const state = bound.start();
          for (const row of input.sources[name] as Obj[]) bound.add(state, projectText(JSON.stringify(row), p, true));
          states[name] = state;
        }
        const whole = await stat.compute(input);
        expect(JSON.stringify(stat.fold.fromFold(states, input)), `${stat.name} ${JSON.stringify(params)}`).toBe(JSON.stringify(whole));
        folded++;
      }
    }
    expect(folded).toBeGreaterThan(3);
  });
});
