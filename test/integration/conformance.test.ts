import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCases } from '../../main/conformance/run-cases';
import { conformanceCommand } from '../../main/cli/commands/conformance';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const conformanceDir = path.resolve(repoRoot, 'test/fixtures/conformance');
const casesDir = path.join(conformanceDir, 'cases');
const judgesDir = path.join(conformanceDir, 'judges');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'while-conformance-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('conformance cases (test/fixtures/conformance, copied from the SDK)', () => {
  it('every case matches the SDK output', async () => {
    const outcomes = await runCases(casesDir, judgesDir, path.join(tmp, 'out'));
    expect(outcomes.length).toBeGreaterThan(0);
    const failing = outcomes.filter((o) => o.status === 'failed');
    expect(failing.map((o) => `${o.name} (${o.function}): ${o.problems.join('; ')}`)).toEqual([]);
    // every case wrote its actual.json in the expected.json shape
    for (const o of outcomes) {
      const actual = JSON.parse(readFileSync(path.join(tmp, 'out', o.name, 'actual.json'), 'utf8'));
      expect(actual.function).toBe(o.function);
      expect('result' in actual || 'error' in actual).toBe(true);
    }
  });

  it('the CLI prints one line per failing case, the closing count, and exits non-zero', async () => {
    const copy = path.join(tmp, 'cases');
    for (const name of ['wilson_grid', 'noise_band_grid']) cpSync(path.join(casesDir, name), path.join(copy, name), { recursive: true });
    const expectedFile = path.join(copy, 'noise_band_grid', 'expected.json');
    const expected = JSON.parse(readFileSync(expectedFile, 'utf8'));
    expected.result[0] += 0.001;
    writeFileSync(expectedFile, JSON.stringify(expected));
    const lines: string[] = [];
    const io = { out: (t: string) => lines.push(t), err: (t: string) => lines.push(t), isTty: false };
    const code = await conformanceCommand.run(['--cases', copy, '--judges', judgesDir, '--out', path.join(tmp, 'cli-out')], io);
    const text = lines.join('');
    expect(code).toBe(1);
    expect(text).toMatch(/^FAIL noise_band_grid \(noise_band\): \[0\]: expected/m);
    expect(text.trimEnd().split('\n').at(-1)).toBe('1 passed, 1 failed');
    expect(existsSync(path.join(tmp, 'cli-out', 'wilson_grid', 'actual.json'))).toBe(true);
  });
});
