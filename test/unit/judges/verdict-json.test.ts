// A graded run makes each row's JSON once (verdict-json.ts): the text it sends the judge and the text it stores
// with the verdict must be exactly what JSON.stringify writes for the row then, whatever the verdict and the row.
import { describe, expect, it } from 'vitest';
import { applyVerdict } from '../../../main/judges/apply-verdict';
import type { JudgeVerdict } from '../../../main/judges/judge-types';
import { rowJson } from '../../../main/judges/verdict-json';

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
  it('writes what JSON.stringify writes, before and after every kind of verdict, in or out of place', () => {
    for (const verdict of verdicts) {
      for (const keepMeta of [true, false]) {
        const row = landed();
        const template = rowJson(row);
        expect(template.text(row)).toBe(JSON.stringify(row));
        const graded = applyVerdict(row, verdict, { scoringRunId: 'score_x', source: 'grade', index: 3, keepMeta, inPlace: true });
        expect(template.text(graded)).toBe(JSON.stringify(graded));
        const copy = applyVerdict(landed(), verdict, { scoringRunId: 'score_y', index: 3, keepMeta });
        expect(template.text(copy)).toBe(JSON.stringify(copy));
      }
    }
  });

  it('handles rows with no verdict key yet, only verdict keys, or nothing', () => {
    for (const row of [{ a: 1 }, { reward: null }, {}, { lineage: {}, a: undefined, b: () => 1 }]) {
      const template = rowJson(row);
      expect(template.text(row)).toBe(JSON.stringify(row));
      const graded = applyVerdict(row, verdicts[0], { scoringRunId: 's', index: 0, inPlace: true });
      expect(template.text(graded)).toBe(JSON.stringify(graded));
    }
  });

  it('falls back to stringifying the whole row when the row changed beyond its verdict', () => {
    const row = landed();
    const template = rowJson(row);
    row.extra = 'added';
    expect(template.text(row)).toBe(JSON.stringify(row));
    const other = landed();
    delete other.seed;
    expect(template.text(other)).toBe(JSON.stringify(other));
    const odd = JSON.parse('{"__proto__": {"reward": 1}, "a": 1}') as Obj;
    expect(rowJson(odd).text(odd)).toBe(JSON.stringify(odd));
    const custom = { a: 1, toJSON: () => ({ b: 2 }) };
    expect(rowJson(custom).text(custom)).toBe('{"b":2}');
  });
});
