// `while-desk export-training` and `export-preference` as a person runs them: the real CLI process on a real
// database, the files compared byte for byte with the SDK's own (test/fixtures/training), and the refusals.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildEngine, repoRoot, runCli, tempDir } from '../helpers/temp';

const fixtures = path.join(repoRoot, 'test/fixtures/training');

beforeAll(async () => {
  await buildEngine();
}, 180_000);

/** The fixture's rows stamped schema_version "1" as text (so an import stores them byte for byte, 1.0 still 1.0). */
function importFixture(db: string, dir: string, name: string): string {
  const lines = fs.readFileSync(path.join(fixtures, name, 'rows.jsonl'), 'utf8').trim().split('\n');
  const file = path.join(dir, `${name}.rows.jsonl`);
  fs.writeFileSync(file, lines.map((l) => l.replace(/}$/, ', "schema_version": "1"}')).join('\n') + '\n');
  const out = runCli(['import', file, '--json', '--db', db]);
  expect(out.code, out.stderr).toBe(0);
  return JSON.parse(out.stdout).dataset_id as string;
}

describe('while-desk export-training', () => {
  it('writes the SDK file byte for byte (unroll, tool output cut) and prints its report with --json', () => {
    const dir = tempDir();
    const db = path.join(dir, 'desk.db');
    const id = importFixture(db, dir, 'export_training_unroll_cap');
    const out = path.join(dir, 'train.jsonl');
    const run = runCli(['export-training', id, out, '--unroll', '--max-tool-output-chars', '0', '--json', '--db', db]);
    expect(run.code, run.stderr).toBe(0);
    expect(fs.readFileSync(out, 'utf8')).toBe(fs.readFileSync(path.join(fixtures, 'export_training_unroll_cap', 'train.jsonl'), 'utf8'));
    const report = JSON.parse(run.stdout);
    for (const key of ['n', 'format', 'with_system', 'with_tools', 'groups', 'tool_call_roundtrip', 'mask_mode', 'unrolled', 'max_tool_output_chars', 'tool_output_truncated', 'tool_output_chars_cut', 'trained_messages', 'masked_messages', 'privileged_leaks', 'rewards', 'path', 'n_written']) {
      expect(report, key).toHaveProperty(key);
    }
    expect(report.mask_mode).toBe('final (unrolled)');
    expect(report.tool_call_roundtrip.encoding).toBe('json_string');
    expect(report.tool_output_truncated).toBeGreaterThan(0);
    expect(fs.readdirSync(dir).filter((f) => f.includes('.partial'))).toEqual([]);
  });

  it('writes TRL prompt/completion rows byte for byte', () => {
    const dir = tempDir();
    const db = path.join(dir, 'desk.db');
    const id = importFixture(db, dir, 'trl_final_tool_cut');
    const out = path.join(dir, 'trl.jsonl');
    const run = runCli(['export-training', id, out, '--format', 'trl', '--mask-mode', 'final', '--max-tool-output-chars', '60', '--db', db]);
    expect(run.code, run.stderr).toBe(0);
    expect(fs.readFileSync(out, 'utf8')).toBe(fs.readFileSync(path.join(fixtures, 'trl_final_tool_cut', 'train.jsonl'), 'utf8'));
    expect(run.stdout).toMatch(/^read\s+\d+ -> \d+/);
    expect(run.stdout).toMatch(/wrote \d+ trl rows to/);
  });

  it('selects, decontaminates and refuses with a clear error and no file', () => {
    const dir = tempDir();
    const db = path.join(dir, 'desk.db');
    const id = importFixture(db, dir, 'export_dataset_openai_tools');
    const evalFile = path.join(dir, 'eval.jsonl');
    fs.writeFileSync(evalFile, `${JSON.stringify({ schema_version: '1', scenario_id: 'task-01', prompt: 'an eval task', steps: [], final_text: 'x' })}\n`);
    const evalId = JSON.parse(runCli(['import', evalFile, '--json', '--db', db]).stdout).dataset_id as string;

    const out = path.join(dir, 'sft.jsonl');
    const run = runCli(['export-training', id, out, '--select', 'top_per_prompt', '--min-reward', '0.5', '--decontaminate-against', evalId, '--json', '--db', db]);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.decontaminate.n_same_task).toBe(4);
    expect(report.selection.selection).toBe('top_per_prompt');
    expect(report.n).toBe(report.selection.n_selected);
    expect(fs.readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(report.n);

    for (const [args, code, message] of [
      [['--format', 'xml'], 2, /--format must be one of openai, trl/],
      [['--mask-mode', 'every'], 2, /--mask-mode must be one of assistant, final/],
      [['--select', 'best'], 2, /--select must be one of all, top_per_prompt/],
      [['--max-tool-output-chars=-3'], 2, /--max-tool-output-chars must be a whole number of at least 0/],
      [['--min-reward', 'high'], 2, /--min-reward must be a number/],
      [['--select', 'top_per_prompt', '--min-reward', '2'], 1, /the selection kept no rows/],
      [['--decontaminate-against', 'ds-nope'], 1, /no dataset or run with id "ds-nope"/],
    ] as Array<[string[], number, RegExp]>) {
      const refused = path.join(dir, 'refused.jsonl');
      const result = runCli(['export-training', id, refused, ...args, '--db', db]);
      expect(result.code, args.join(' ')).toBe(code);
      expect(result.stderr).toMatch(message);
      expect(fs.existsSync(refused)).toBe(false);
    }
    expect(fs.readdirSync(dir).filter((f) => f.includes('.partial'))).toEqual([]);
  });
});

describe('while-desk export-preference', () => {
  it('writes TRL DPO rows with the shared prefix as prompt and one diverging turn per side', () => {
    const dir = tempDir();
    const db = path.join(dir, 'desk.db');
    const id = importFixture(db, dir, 'export_dataset_openai_tools');
    const out = path.join(dir, 'dpo.jsonl');
    const run = runCli(['export-preference', id, out, '--format', 'trl', '--json', '--db', db]);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.format).toBe('trl');
    expect(report.tool_call_roundtrip.encoding).toBe('dict');
    const rows = fs.readFileSync(out, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    expect(rows).toHaveLength(report.pairs);
    for (const row of rows) {
      expect(Array.isArray(row.prompt)).toBe(true);
      expect(row.chosen).toHaveLength(1);
      expect(row.rejected).toHaveLength(1);
      expect(row.chosen[0].role).toBe('assistant');
    }
    const bad = runCli(['export-preference', id, path.join(dir, 'x.jsonl'), '--format', 'fireworks', '--db', db]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--format must be one of openai, trl/);
  });
});
