// A graded run makes each row's JSON once (verdict-json.ts): the text it sends the judge and the text it stores
// with the verdict must be exactly what JSON.stringify writes for the row then, whatever the verdict and the row.
import { describe, expect, it } from 'vitest';
import { applyVerdict } from '../../../main/judges/apply-verdict';
import type { JudgeVerdict } from '../../../main/judges/judge-types';
import { rowJson, verdictBase } from '../../../main/judges/verdict-json';

type Obj = Record<string, unknown>;

const landed = (): Obj => ({
  schema_version: '1',
  scenario_id: 't1',
  rollout_index: 2,
  prompt: 'Where is "ORD-1"?\n\u2028é',
  steps: [{ tool: 'get_order', arguments: { order_id: 'ORD-1' }, result: { status: 'ok' } }],
  final_text: 'shipped',
  messages: [{ role: 'user', content: 'x' }],
  sampling: null,
  skipped: undefined,
  model_version: 'seeded',
  lineage: { system_prompt_sha: 'abc', eval_run: 1 },
  reward: null,
  seed: 7,
  markers: { own: 1 },
  privileged: { reference: 'shipped' },
  when: new Date(0),
});

const verdicts: JudgeVerdict[] = [
  { reward: 1, judge_status: 'ok', judge_name: 'j', reason: 'used a tool' },
  { reward: 0.5, judge_status: 'ok', judge_name: 'j', markers: { tone: 0.2 }, judge_meta: { extra: [1, 2] } },
  { reward: null, judge_status: 'timeout', judge_name: 'j', judge_meta: { timeout_s: 10, failure_class: 'slow' } },
  { reward: null, judge_status: 'crashed', judge_name: 'j', judge_meta: { error: 'process.exit(3)' } },
];

describe('a row stringified once for its judge and its storage', () => {
  it('writes what JSON.stringify writes, before and after every kind of verdict, on the row or on its stand-in', () => {
    for (const verdict of verdicts) {
      for (const keepMeta of [true, false]) {
        const options = { scoringRunId: 'score_x', source: 'grade' as const, index: 3, keepMeta, inPlace: true };
        const row = landed();
        const json = rowJson(row);
        expect(json.text).toBe(JSON.stringify(row));
        const graded = applyVerdict(row, verdict, options);
        expect(json.graded(graded)).toBe(JSON.stringify(graded));
        // Graded on its stand-in while the row itself is let go: the same text.
        const alone = rowJson(landed());
        const base = applyVerdict(verdictBase(landed()), verdict, options);
        expect(alone.graded(base)).toBe(JSON.stringify(applyVerdict(landed(), verdict, options)));
        // A graded copy (grade's way) too.
        const copy = applyVerdict(landed(), verdict, { ...options, inPlace: false, scoringRunId: 'score_y' });
        expect(alone.graded(copy)).toBe(JSON.stringify(copy));
      }
    }
  });

  it('handles rows with no verdict key yet, only verdict keys, omitted values, or nothing', () => {
    const rows = (): Obj[] => [{ a: 1 }, { reward: null }, {}, { lineage: {}, a: undefined, b: () => 1 }, { reason: undefined, c: 'x'.repeat(40), reward: 0 }, { id: 'r1', markers: { a: 1 } }];
    rows().forEach((row, i) => {
      const json = rowJson(row);
      expect(json.text).toBe(JSON.stringify(row));
      const base = applyVerdict(verdictBase(rows()[i]), verdicts[1], { scoringRunId: 's', index: 0, inPlace: true });
      const graded = applyVerdict(row, verdicts[1], { scoringRunId: 's', index: 0, inPlace: true });
      expect(json.graded(graded)).toBe(JSON.stringify(graded));
      expect(json.graded(base)).toBe(JSON.stringify(graded));
    });
  });

  it('stringifies a row whole when its pieces cannot be cut (an own __proto__ or toJSON)', () => {
    const odd = JSON.parse('{"__proto__": {"reward": 1}, "a": 1, "reward": null}') as Obj;
    const json = rowJson(odd);
    expect(json.text).toBe(JSON.stringify(odd));
    const graded = applyVerdict(verdictBase(odd), verdicts[0], { scoringRunId: 's', index: 0, inPlace: true });
    expect(JSON.parse(json.graded(graded))).toMatchObject({ a: 1, reward: 1, judge_status: 'ok' });
    expect(json.graded(graded).startsWith('{"__proto__":{"reward":1},"a":1,"reward":1,')).toBe(true);
    const custom = { a: 1, toJSON: () => ({ b: 2 }) };
    expect(rowJson(custom).text).toBe('{"b":2}');
  });
});
