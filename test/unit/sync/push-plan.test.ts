// Writing the gate's calibration stamp into a row's JSON without re-serialising the row (push-plan.ts).
import { describe, expect, it } from 'vitest';
import { withStamp } from '../../../main/sync/push-plan';

describe('withStamp', () => {
  const stamp = JSON.stringify({ task_id: 't', n: 2, pass_rate: 0.5 });
  it('appends the stamp, replaces a carried one, and leaves unstamped rows byte for byte', () => {
    expect(withStamp('{"a":1,"b":"x"}', stamp)).toBe(`{"a":1,"b":"x","calibration":${stamp}}`);
    expect(withStamp('{}', stamp)).toBe(`{"calibration":${stamp}}`);
    expect(JSON.parse(withStamp('{"calibration":{"n":1},"a":1}', stamp))).toEqual({ calibration: JSON.parse(stamp), a: 1 });
    expect(withStamp('{"a": 1 }', undefined)).toBe('{"a": 1 }');
    expect(JSON.parse(withStamp('{"prompt":"say \\"calibration\\"","a":1}', stamp))).toEqual({ prompt: 'say "calibration"', a: 1, calibration: JSON.parse(stamp) });
  });
});
