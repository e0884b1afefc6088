// The file export_dataset writes, byte for byte against the SDK's own file for the same rows (fixtures made by running
// the SDK's export logic in Python on generated multi-turn rows: test/fixtures/training/README.md).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePyJson } from '../../../shared/schema/py-json';
import { exportDatasetRows, trainingLine } from '../../../shared/training/index';

const root = path.join(__dirname, '../../fixtures/training');
const cases = readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);

describe('export_dataset writes the SDK file byte for byte', () => {
  it('has fixtures to check', () => expect(cases.length).toBeGreaterThanOrEqual(5));
  for (const name of cases) {
    it(name, () => {
      const dir = path.join(root, name);
      const call = JSON.parse(readFileSync(path.join(dir, 'call.json'), 'utf8')) as { kwargs: Record<string, unknown> };
      const rows = readFileSync(path.join(dir, 'rows.jsonl'), 'utf8').split('\n').filter((l) => l.trim()).map((l) => parsePyJson(l));
      const { rows: out } = exportDatasetRows(rows, call.kwargs);
      const text = out.map(trainingLine).join('');
      const expected = readFileSync(path.join(dir, 'train.jsonl'), 'utf8');
      if (text !== expected) {
        const a = text.split('\n');
        const b = expected.split('\n');
        const first = b.findIndex((line, i) => line !== a[i]);
        expect(a[first], `first differing line ${first + 1}`).toBe(b[first]);
      }
      expect(text.length).toBe(expected.length);
    });
  }
});
