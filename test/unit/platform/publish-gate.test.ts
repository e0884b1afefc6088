import { describe, expect, it } from 'vitest';
import { publishGate, PublishGateError } from '../../../shared/platform';
import { sha256Hex } from '../../../shared/stats/hash';

const rows = (groups: Array<Array<number | null>>, extra: Record<string, unknown> = {}) =>
  groups.flatMap((rewards, t) => rewards.map((reward, r) => ({ scenario_id: `g${t}`, rollout_index: r, prompt: `ask ${t}`, policy_version: 'pv-1', reward, ...extra })));

describe('publish gate (platform-api §3.5)', () => {
  it('refuses ungraded RL-shaped rows with a PublishGateError whose message starts with the code', () => {
    const ungraded = rows([[null, null], [0.5, null]]);
    try {
      publishGate(ungraded, { mode: 'RL' });
      throw new Error('expected a refusal');
    } catch (error) {
      expect(error).toBeInstanceOf(PublishGateError);
      expect((error as PublishGateError).message.startsWith('ungraded_rl_rows:')).toBe(true);
      expect((error as PublishGateError).pythonType).toBe('PublishGateError');
    }
    const lenient = publishGate(ungraded, { mode: 'rl', strict: false });
    expect(lenient.report).toMatchObject({ ok: false, rl_shaped: true, mode: 'rl', warnings: [] });
    expect(lenient.report.refusal).toMatch(/^ungraded_rl_rows: /);
    expect(lenient.stamps).toEqual([null, null, null, null]);
  });

  it('refuses RL data with no mixed group (repeated asks make it RL-shaped without mode=)', () => {
    expect(() => publishGate(rows([[1, 1], [0, 0]]))).toThrow(/^no_mixed_groups: /);
    const out = publishGate(rows([[1, 1], [0, 0]]), { strict: false });
    expect(out.report.signal).toMatchObject({ n_mixed: 0, n_all_one: 1, n_all_zero: 1, mixed_rate: 0 });
    expect(out.stamps[0]).toMatchObject({ task_id: 'g0', n: 2, pass_rate: 1, student: { name: '', model: null, prompt_hash: null, version: 'pv-1' } });
  });

  it('explore-shaped rows (one per ask) pass with stamps and no gate warnings', () => {
    const out = publishGate(rows([[1], [0], [null]]));
    expect(out.report).toMatchObject({ ok: true, rl_shaped: false, refusal: null, warnings: [] });
    expect(out.report.calibration).toMatchObject({ n_tasks: 2, n_rows: 3, n_stamped: 2, n_unstamped: 1, n_carried: 0 });
    expect(out.stamps[1]).toMatchObject({ pass_rate: 0, pass_rate_ci95: [0, 0.7935] });
  });

  it('a system-prompt string is hashed into the student; the input rows are not touched', () => {
    const input = rows([[1, 0, 1, 0], [1, 1, 1, 0]]);
    const out = publishGate(input, { policy: 'You are a refund agent.', model: 'qwen' });
    expect(out.report.calibration.student).toEqual({ name: '', model: 'qwen', prompt_hash: sha256Hex('You are a refund agent.').slice(0, 16), version: null });
    expect(out.report.warnings).toEqual([]); // both mixed asks sit inside 20%-80%
    expect(input[0]).not.toHaveProperty('calibration');
    expect((out.rows[0] as Record<string, unknown>).calibration).toEqual(out.stamps[0]);
  });

  it('keeps a carried stamp with a larger n and warns about it; out-of-band and unanimous asks warn', () => {
    const carried = { task_id: 'g0', student: { name: 'old' }, n: 16, pass_rate: 0.25, mean_kl: null, pass_rate_ci95: [0.1, 0.5] };
    const input = [...rows([[1, 0]], { calibration: carried }), ...rows([[], [1, 1, 1, 1, 1, 1, 1, 1, 1, 0], [0, 0]])];
    const out = publishGate(input, { mode: 'rl', policy: { name: 'acme', version: 'v7' } });
    expect(out.stamps[0]).toMatchObject({ task_id: 'g0', n: 16, pass_rate: 0.25, student: { name: 'acme', version: 'v7', model: null, prompt_hash: null } });
    expect(out.report.calibration.n_carried).toBe(2);
    expect(out.report.warnings).toHaveLength(3);
    expect(out.report.warnings[0]).toMatch(/^1 mixed ask\(s\) pass outside the 20%-80% band/);
    expect(out.report.warnings[1]).toMatch(/^1 unanimous ask/);
    expect(out.report.warnings[2]).toMatch(/^2 row\(s\) keep the calibration/);
  });
});
