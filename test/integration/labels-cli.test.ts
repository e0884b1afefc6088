// `while-desk labels import|export|ID` against the SDK's own attach_labels outputs (the conformance cases).
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildEngine, repoRoot, runCli, tempDir } from '../helpers/temp';

const cases = path.join(repoRoot, 'test/fixtures/conformance/cases');

beforeAll(async () => {
  await buildEngine();
}, 180_000);

function importRows(db: string, file: string): string {
  const out = runCli(['import', file, '--json', '--db', db]);
  expect(out.code, out.stderr).toBe(0);
  return JSON.parse(out.stdout).dataset_id as string;
}

describe('while-desk labels', () => {
  it('imports the key-forms labels with the SDK report, exports them, summarises with kappa', () => {
    const dir = tempDir();
    const db = path.join(dir, 'desk.db');
    const caseDir = path.join(cases, 'attach_labels_key_forms');
    const id = importRows(db, path.join(caseDir, 'rows.jsonl'));
    const expected = JSON.parse(fs.readFileSync(path.join(caseDir, 'expected.json'), 'utf8')).result.report;
    const imported = runCli(['labels', 'import', path.join(caseDir, 'labels.jsonl'), '--dataset', id, '--annotator', 'qa-team', '--kind', 'human', '--json', '--db', db]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout)).toEqual(expected);

    const out = path.join(dir, 'labels.out.jsonl');
    const exported = runCli(['labels', 'export', id, out, '--db', db]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toBe(`exported 10 labels to ${out}\n`);
    const lines = fs.readFileSync(out, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    // Stored (and so exported) row by row, each row's labels in file order.
    expect(lines.filter((line) => line.key === 'run7-00001')).toEqual([
      { key: 'run7-00001', label: 1, annotator: 'ana', kind: 'human', ts: 1700000000 },
      { key: 'run7-00001', label: 1, annotator: 'ben', kind: 'human', ts: 1700000008 },
    ]);
    expect(lines.find((line) => line.key === 'scn_b#2')).toMatchObject({ note: 'promised a refund it cannot issue' });

    const summary = runCli(['labels', id, '--json', '--db', db]);
    expect(summary.code, summary.stderr).toBe(0);
    const parsed = JSON.parse(summary.stdout);
    expect(parsed.annotators.map((a: { annotator: string }) => a.annotator)).toEqual(['ana', 'ben', 'cho', 'qa-team']);
    // ana and ben both labeled run7-00001 (1, 1) and scn_b#1 (1, 0).
    expect(parsed.pairs.find((p: { a: string; b: string }) => p.a === 'ana' && p.b === 'ben')).toEqual({ a: 'ana', b: 'ben', n: 2, agreement: 0.5, kappa: 0 });
    const readable = runCli(['labels', id, '--db', db]);
    expect(readable.stdout).toMatch(/ANNOTATOR\s+LABELS\s+PASS\s+FAIL/);
    expect(readable.stdout).toMatch(/ana\s+ben\s+2\s+0\.5\s+0\b/);
  }, 60_000);

  it('refuses an ambiguous key and writes nothing; a bad kind is a usage error', () => {
    const dir = tempDir();
    const db = path.join(dir, 'desk.db');
    const caseDir = path.join(cases, 'attach_labels_ambiguous_error');
    const id = importRows(db, path.join(caseDir, 'rows.jsonl'));
    const expected = JSON.parse(fs.readFileSync(path.join(caseDir, 'expected.json'), 'utf8')).error.message;
    const refused = runCli(['labels', 'import', path.join(caseDir, 'labels.jsonl'), '--dataset', id, '--db', db]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(expected);
    const summary = JSON.parse(runCli(['labels', id, '--json', '--db', db]).stdout);
    expect(summary.rows_labeled).toBe(0);
    const bad = runCli(['labels', 'import', path.join(caseDir, 'labels.jsonl'), '--dataset', id, '--kind', 'crowd', '--db', db]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--kind is one of human, program, verifier, model/);
  }, 60_000);
});
