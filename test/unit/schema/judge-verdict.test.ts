// The one verdict normaliser against sdk-semantics §5.1's table, and what a hostile judge's answer cannot do.
import { describe, expect, it } from 'vitest';
import { normalizeVerdict } from '../../../shared/schema/judge-verdict';

describe('normalizeVerdict (sdk-semantics §5.1)', () => {
  it('takes a bare number in [0, 1] or a boolean; 0 and 1 stay exact and a reward in between is not rounded', () => {
    expect(normalizeVerdict(true)).toEqual({ reward: 1, status: 'ok' });
    expect(normalizeVerdict(false)).toEqual({ reward: 0, status: 'ok' });
    expect(normalizeVerdict(0.1234567)).toEqual({ reward: 0.1234567, status: 'ok' });
    expect(Object.is(normalizeVerdict(-0).reward, 0)).toBe(true);
  });

  it('follows the table: missing reward, reward not a number, out of range, any other type', () => {
    expect(normalizeVerdict({ verdict: 'pass', b: 1, a: 2 })).toEqual({ reward: null, status: 'missing_reward', meta: { returned_keys: ['a', 'b', 'verdict'] } });
    expect(normalizeVerdict({ reward: 'high' })).toEqual({ reward: null, status: 'invalid_result', meta: { reward_type: 'string' } });
    // a reward key that is there but null is not a number; it does not fall through to score
    expect(normalizeVerdict({ reward: null, score: 1 })).toEqual({ reward: null, status: 'invalid_result', meta: { reward_type: 'null' } });
    expect(normalizeVerdict(1.5)).toEqual({ reward: null, status: 'invalid_result', meta: { reward_out_of_range: 1.5 } });
    expect(normalizeVerdict(Number.NaN)).toEqual({ reward: null, status: 'invalid_result', meta: { reward_out_of_range: 'NaN' } });
    expect(normalizeVerdict(null)).toEqual({ reward: null, status: 'invalid_result', meta: { returned_type: 'null' } });
    expect(normalizeVerdict(undefined)).toEqual({ reward: null, status: 'invalid_result', meta: { returned_type: 'undefined' } });
    expect(normalizeVerdict('1')).toEqual({ reward: null, status: 'invalid_result', meta: { returned_type: 'string' } });
    expect(normalizeVerdict([1])).toEqual({ reward: null, status: 'invalid_result', meta: { returned_type: 'array' } });
  });

  it('keeps every other key in meta, a nested judge_meta flattened over them, markers in both places', () => {
    const verdict = normalizeVerdict({ score: 1, reason: 'fine', failure_class: 'x', markers: { m: 2 }, judge_meta: { failure_class: 'y', v: 2 } });
    expect(verdict).toEqual({ reward: 1, status: 'ok', reason: 'fine', markers: { m: 2 }, meta: { failure_class: 'y', markers: { m: 2 }, v: 2 } });
    expect(normalizeVerdict({ reward: 1, reason: '' })).toEqual({ reward: 1, status: 'ok' });
    expect(normalizeVerdict({ reward: 1, markers: { m: 'a lot' } })).toEqual({ reward: null, status: 'invalid_result', meta: { markers_invalid: 'markers.m must be a number, got string' } });
  });

  it('maps a Likert rating (rating, score, reward in that precedence), rounded to 6 places, and refuses hi <= lo', () => {
    expect(normalizeVerdict(2, [1, 4])).toEqual({ reward: 0.333333, status: 'ok', meta: { rating: 2, scale: [1, 4] } });
    expect(normalizeVerdict({ rating: 5, score: 1 }, [1, 5])).toEqual({ reward: 1, status: 'ok', meta: { rating: 5, scale: [1, 5] } });
    expect(normalizeVerdict(9, [1, 5])).toEqual({ reward: null, status: 'invalid_result', meta: { rating_out_of_scale: 9, scale: [1, 5] } });
    expect(() => normalizeVerdict(1, [5, 1])).toThrow(/hi > lo/);
  });

  it('on a scale, as the SDK: a boolean is no rating, a rating present but null is missing, the reason is kept', () => {
    expect(normalizeVerdict(true, [1, 5])).toEqual({ reward: null, status: 'invalid_result', meta: { reward_type: 'boolean' } });
    expect(normalizeVerdict({ rating: true, reason: 'r' }, [1, 5])).toEqual({ reward: null, status: 'invalid_result', reason: 'r', meta: { reward_type: 'boolean' } });
    expect(normalizeVerdict({ rating: null, score: 5, reason: 'r' }, [1, 5])).toEqual({ reward: null, status: 'missing_reward', reason: 'r', meta: { returned_keys: ['rating', 'reason', 'score'] } });
    expect(normalizeVerdict({ rating: 0, reason: 'low' }, [1, 5])).toMatchObject({ status: 'invalid_result', reason: 'low', meta: { rating_out_of_scale: 0 } });
    expect(normalizeVerdict({ rating: 7, note: 'n' }, [0, 10])).toEqual({ reward: 0.7, status: 'ok', meta: { note: 'n', rating: 7, scale: [0, 10] } });
  });

  it('reads only a plain object\'s own keys: no class instance, no reward from a polluted prototype', () => {
    class Verdict {
      reward = 1;
    }
    expect(normalizeVerdict(new Verdict())).toEqual({ reward: null, status: 'invalid_result', meta: { returned_type: 'object (Verdict)' } });
    expect(normalizeVerdict(new Map([['reward', 1]]))).toMatchObject({ status: 'invalid_result', meta: { returned_type: 'object (Map)' } });
    const inherits = Object.create({ reward: 1 }) as object;
    expect(normalizeVerdict(inherits).status).toBe('invalid_result');
    const noPrototype = Object.assign(Object.create(null) as object, { reward: 0.5 });
    expect(normalizeVerdict(noPrototype)).toEqual({ reward: 0.5, status: 'ok' });
  });
});
