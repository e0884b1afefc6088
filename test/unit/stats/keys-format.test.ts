import { describe, expect, it } from 'vitest';
import { pyStr, pyTruthy, rowKey, taskKey } from '../../../shared/stats/keys';
import { pyFixed, pyFloatRepr, pyG, pyRound } from '../../../shared/stats/py-format';
import { agreementLabel, binaryReward, gradedReward, groupLabel, isFraction, markerValue, pyFloat, trustLabel } from '../../../shared/stats/readers';
import { sha1Hex, sha256Hex } from '../../../shared/stats/hash';

describe('keys (stats-semantics §3.1, §12.1)', () => {
  it('task_key takes the first truthy id as Python str()', () => {
    expect(taskKey({ scenario_id: 'scn_1', task_id: 't1', prompt: 'p' })).toBe('scn_1');
    expect(taskKey({ scenario_id: '', task_id: 't2' })).toBe('t2');
    expect(taskKey({ task_id: 0, prompt: 'Cancel my plan.' })).toBe('Cancel my plan.');
    expect(taskKey({ scenario_id: 17 })).toBe('17');
    expect(taskKey({ scenario_id: false, task_id: 't10' })).toBe('t10');
    expect(taskKey({})).toBe('');
  });

  it('row_key: rollout_id, sid#idx (0 counts), else a SHA-1 of prompt and final_text', () => {
    expect(rowKey({ rollout_id: 'run7-00003', scenario_id: 'scn_a', rollout_index: 3 })).toBe('run7-00003');
    expect(rowKey({ scenario_id: 0, task_id: 't9', rollout_index: 0 })).toBe('0#0');
    expect(rowKey({ scenario_id: 17, rollout_index: 2 })).toBe('17#2');
    expect(rowKey({ prompt: 'Where is my order?' })).toBe('0b5dc5225c1b0a7c');
    expect(rowKey({})).toBe('953efe8f531a5a87');
    expect(rowKey({ prompt: '' })).toBe('953efe8f531a5a87');
  });

  it('pyStr and truthiness follow Python', () => {
    expect(pyStr(null)).toBe('None');
    expect(pyStr(true)).toBe('True');
    expect(pyStr(2.5)).toBe('2.5');
    expect(pyStr(['a', 1])).toBe("['a', 1]");
    expect(pyTruthy([])).toBe(false);
    expect(pyTruthy({})).toBe(false);
    expect(pyTruthy('0')).toBe(true);
  });

  it('hashes match the standard test vectors', () => {
    expect(sha1Hex('abc')).toBe('a9993e364706816aba3e25717850c26c9cd0d89d');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('Python number formatting (§1)', () => {
  it('round() and fixed formats round exact halves to even', () => {
    expect(pyRound(0.125, 2)).toBe(0.12);
    expect(pyRound(0.375, 2)).toBe(0.38);
    expect(pyRound(2.675, 2)).toBe(2.67);
    expect(pyRound(0.0346410161513775, 4)).toBe(0.0346);
    expect([pyFixed(0.5, 0), pyFixed(1.5, 0), pyFixed(2.5, 0), pyFixed(0.125, 2)]).toEqual(['0', '2', '2', '0.12']);
  });

  it('float repr and g format', () => {
    expect([pyFloatRepr(1e16), pyFloatRepr(1e-5), pyFloatRepr(3), pyFloatRepr(123456789012345680), pyFloatRepr(0.0001)]).toEqual([
      '1e+16', '1e-05', '3.0', '1.2345678901234568e+17', '0.0001',
    ]);
    expect([pyG(0.05), pyG(1234567), pyG(0.00001234), pyG(0.5)]).toEqual(['0.05', '1.23457e+06', '1.234e-05', '0.5']);
  });
});

describe('reward readers (§3.2)', () => {
  it('binary reader: reward only, numeric strings parse, booleans do not count', () => {
    expect(binaryReward({ reward: '1' })).toBe(1);
    expect(binaryReward({ reward: true })).toBeNull();
    expect(binaryReward({ reward: 0.5 })).toBeNull();
    expect(binaryReward({ qwen_reward: 1 })).toBeNull();
  });

  it('group-label reader falls through a non-binary reward to qwen_reward', () => {
    expect(groupLabel({ reward: 0.5, qwen_reward: 1 })).toBe(1);
    expect(groupLabel({ reward: null, qwen_reward: '0' })).toBe(0);
    expect(gradedReward({ reward: 0.5, qwen_reward: 1 })).toBe(0.5);
    expect(gradedReward({ reward: 'nan', qwen_reward: 1 })).toBe(1);
  });

  it('label readers differ on strings, and markers accept booleans', () => {
    expect(trustLabel('1')).toBe(1);
    expect(agreementLabel('1')).toBeNull();
    expect(agreementLabel(0)).toBe(0);
    expect(isFraction(0.25)).toBe(true);
    expect(isFraction(1)).toBe(false);
    expect(markerValue({ markers: { x: true } }, 'x')).toBe(1);
    expect(markerValue({ markers: { x: null } }, 'x')).toBeNull();
    expect(pyFloat(' 1_0 ')).toBe(10);
    expect(pyFloat('abc')).toBeNull();
  });
});
