// judge_probes against the SDK's conformance cases (stats-semantics §13.3, probe-texts.md), plus behaviour checks.
import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { casesDir, runJudgeCase } from './judge-cases';
import { judgeProbes, pickGraded, probeResolves } from '../../../shared/stats/judge-probes';
import { FILLER, probeRow, rubricWords, REFUSAL_REPLY } from '../../../shared/stats/probe-texts';
import { normalizeVerdict } from '../../../shared/schema/judge-verdict';
import { judgeVerdicts, runJudge } from '../../../shared/stats/judge-fn';

const cases = readdirSync(casesDir).filter((c) => c.startsWith('judge_probes_')).sort();

describe('judge_probes conformance cases', () => {
  it('finds the cases', () => expect(cases.length).toBeGreaterThan(0));
  for (const name of cases) {
    it(name, async () => {
      const { problems } = await runJudgeCase(name);
      expect(problems).toEqual([]);
    });
  }
});

const RUBRIC =
  'Pass the reply only if it confirms the refund amount, states the refund timeline, and names the order. Fail replies that promise a refund without issuing it or that refuse.';

describe('probe texts', () => {
  it('draws the rubric words the SDK draws', () => {
    expect(rubricWords(RUBRIC)).toEqual(['refund', 'amount', 'confirms', 'issuing', 'names', 'order', 'promise', 'refuse']);
  });

  it('edits final_text and the last assistant message only', () => {
    const row = {
      prompt: '  Where   is\n my order?  ',
      final_text: 'Hi.',
      messages: [{ role: 'system', content: 'Be kind.' }, { role: 'assistant', content: 'one' }, { role: 'assistant', content: 'Hi.' }],
      steps: [{ tool: '', text: '' }, { tool: 'lookup_order', arguments: { id: 1 } }],
    };
    const filler = probeRow('filler', row, null)!;
    expect(filler.final_text).toBe('Hi.' + FILLER.repeat(3));
    expect((filler.final_text as string).length).toBe(168);
    expect((filler.messages as Array<{ content: string }>)[1].content).toBe('one');
    expect(row.messages[2].content).toBe('Hi.');
    expect(probeRow('prompt_echo', row, null)!.final_text).toBe('You asked: Where is my order?. Hi.');
    const empty = probeRow('empty_format', row, null)!;
    expect(empty.final_text).toBe('<tool_call>\n{"name": "lookup_order", "arguments": {}}\n</tool_call>');
    expect(empty.steps).toEqual([{ tool: 'lookup_order', arguments: {}, result: {} }]);
    expect(probeRow('refusal', row, null)).toMatchObject({ final_text: REFUSAL_REPLY, steps: [] });
    expect(probeRow('keyword_stuffing', row, null)).toBeNull(); // "Be kind." has no 5-letter word
    expect(probeRow('keyword_stuffing', { final_text: 'x' }, 'refund refund window')!.final_text).toBe('x This response is refund, window.');
  });
});

describe('judge calls and the probe statistics', () => {
  it('normalises verdicts without inventing a reward', () => {
    expect(normalizeVerdict(true)).toMatchObject({ reward: 1, status: 'ok' });
    expect(normalizeVerdict(0.25)).toMatchObject({ reward: 0.25, status: 'ok' });
    expect(normalizeVerdict(2).status).toBe('invalid_result');
    expect(normalizeVerdict({ score: 1, reason: 'fine' })).toMatchObject({ reward: 1, status: 'ok', reason: 'fine' });
    expect(normalizeVerdict({ verdict: 'pass' }).status).toBe('missing_reward');
    expect(normalizeVerdict('1').status).toBe('invalid_result');
  });

  it('keeps row order under concurrency and records a throwing judge as an error', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => ({ i }));
    const judge = async (row: Record<string, unknown>) => {
      await new Promise((r) => setTimeout(r, (30 - (row.i as number)) % 7));
      if (row.i === 3) throw new Error('boom');
      return (row.i as number) % 2;
    };
    const verdicts = await judgeVerdicts(rows, judge, 5);
    expect(verdicts.map((v) => v.reward)).toEqual(rows.map((r) => (r.i === 3 ? null : r.i % 2)));
    expect(verdicts[3].status).toBe('error');
    const scored = await runJudge(rows.slice(0, 2), function lenJudge() { return { reward: 1, markers: { m: 1 } }; });
    expect(scored[0]).toMatchObject({ reward: 1, judge_status: 'ok', judge_name: 'lenJudge', markers: { m: 1 } });
  });

  it('marks a call that outlives timeout_s as timeout when the pool runs', async () => {
    const hang = (row: Record<string, unknown>) => (row.i === 0 ? new Promise(() => {}) : Promise.resolve(1));
    const scored = await runJudge([{ i: 0 }, { i: 1 }], hang, { concurrency: 2, timeout_s: 0.05 });
    expect(scored.map((r) => [r.reward, r.judge_status])).toEqual([[null, 'timeout'], [1, 'ok']]);
  });

  it('computes resolves on the 0.01 grid and samples like random.Random when over `sample`', () => {
    expect(probeResolves(13, 0.1)).toBe(0.38);
    expect(probeResolves(1, 0.1)).toBe(0.92);
    expect(probeResolves(0, 0.1)).toBeNull();
    const rows = Array.from({ length: 50 }, (_, i) => ({ i, reward: i % 2 }));
    const a = pickGraded(rows, 10, 0);
    expect(a).toHaveLength(10);
    expect(pickGraded(rows, 10, 0)).toEqual(a);
    expect(pickGraded(rows, 60, 0)).toHaveLength(50);
  });

  it('marks a probe under PROBE_MIN_N as low power and never flags it', async () => {
    const rows = Array.from({ length: 12 }, (_, i) => ({ prompt: `ask ${i}`, final_text: 'short', reward: i < 10 ? 0 : 1 }));
    const out = await judgeProbes(rows, (row) => ((row.final_text as string).length > 100 ? 1 : 0), { probes: ['filler', 'refusal'] });
    const filler = out.probes.filler as { low_power: boolean; flagged: boolean; exploit_rate: number; resolves: number; denominator: number };
    expect(filler.denominator).toBe(10);
    expect(filler.exploit_rate).toBe(1);
    expect(filler.low_power).toBe(true);
    expect(filler.flagged).toBe(false);
    expect(filler.resolves).toBe(probeResolves(10, 0.1));
    expect(out.exploitable_by).toEqual([]);
    expect(out.notes).toHaveLength(2);
    await expect(judgeProbes(rows, () => 1, { probes: ['nope'] })).rejects.toThrow(/unknown probe/);
    expect((await judgeProbes([{ reward: 0.5 }], () => 1)).note).toBe('no graded rows to probe');
  });
});
