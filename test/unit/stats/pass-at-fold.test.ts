// pass_at's fold: folding rows one at a time, and merging the folds of consecutive parts, gives exactly passAt on
// the rows (the stats worker folds files and cuts large ones in two threads on this promise).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { passAt, passAtFrom } from '../../../shared/stats/pass-at';
import { foldPassAt, mergePassAt } from '../../../shared/stats/pass-at-fold';
import { taskCountOf } from '../../../shared/stats/task-tally';

const cases = path.resolve(__dirname, '../../fixtures/conformance/cases');

function caseRows(name: string): unknown[] {
  return fs.readFileSync(path.join(cases, name, 'rows.jsonl'), 'utf8').split('\n').filter((line) => line.trim()).map((line) => JSON.parse(line));
}

/** Rows that reach every branch of the fold: odd rows, failed judges, string rewards, think blocks, mixed facts. */
function oddRows(): unknown[] {
  const rows: unknown[] = [42, null, 'text', []];
  for (let t = 0; t < 12; t++) {
    for (let r = 0; r < 4; r++) {
      const i = t * 4 + r;
      rows.push({
        scenario_id: t % 5 === 0 ? undefined : `t${t}`, task_id: `task-${t}`, prompt: `p${t}`,
        reward: i % 7 === 0 ? '1' : i % 11 === 0 ? 0.5 : i % 13 === 0 ? null : (i * 7) % 3 === 0 ? 1 : 0,
        qwen_reward: i % 17 === 0 ? 1 : undefined,
        judge_status: i % 9 === 0 ? 'error' : i % 10 === 0 ? 'timeout' : 'ok', reason: i % 9 === 0 ? ` judge broke on ${i} ` : undefined,
        sampling: { temperature: t < 6 ? 0.7 : 1, max_tokens: 512 }, policy_version: `pol@${t < 9 ? 'a' : 'b'}`,
        finish_reason: i % 8 === 0 ? 'length' : 'stop',
        final_text: i % 6 === 0 ? '<think>unclosed' : i % 5 === 0 ? '   ' : `answer ${i}`,
        messages: i % 5 === 0 ? [{ role: 'assistant', content: 'from messages' }] : undefined,
        lineage: i % 4 === 0 ? { system_prompt_sha: 'abc', judge_version: 'j1' } : undefined,
      });
    }
  }
  return rows;
}

function expectFoldsAgree(rows: unknown[], options: Parameters<typeof passAt>[1] = {}): void {
  const whole = passAt(rows, options);
  expect(passAtFrom(foldPassAt(rows), options)).toEqual(whole);
  for (const cut of [0, 1, Math.floor(rows.length / 3), Math.floor(rows.length / 2), rows.length - 1, rows.length]) {
    const merged = mergePassAt(structuredClone(foldPassAt(rows.slice(0, cut))), structuredClone(foldPassAt(rows.slice(cut))));
    expect(passAtFrom(merged, options), `cut at ${cut}`).toEqual(whole);
  }
}

describe('pass_at fold', () => {
  it('agrees with passAt on the conformance rows, whole and cut anywhere, after a structured clone', () => {
    const names = fs.readdirSync(cases).filter((name) => name.startsWith('pass_at_') && fs.existsSync(path.join(cases, name, 'rows.jsonl')));
    expect(names.length).toBeGreaterThanOrEqual(3);
    for (const name of names) expectFoldsAgree(caseRows(name), { k: 4 });
  });

  it('agrees on odd rows: notes, judge failures, string rewards, think blocks and mixed run facts', () => {
    const rows = oddRows();
    expectFoldsAgree(rows);
    expectFoldsAgree(rows, { k: 2, unanimous_short: true });
    expect(passAt(rows).config.mixed).toEqual(expect.arrayContaining(['temperature', 'policy_version']));
  });

  it('agrees when nothing scores: the judge-failed note with its first reason', () => {
    const rows = Array.from({ length: 6 }, (_, i) => ({ scenario_id: `t${i}`, reward: null, judge_status: i < 3 ? 'timeout' : 'crashed', reason: i === 2 ? 'slow' : undefined }));
    expectFoldsAgree(rows);
    expect(passAt(rows).note).toBe('the judge failed on all 6 rows (crashed/timeout): slow; re-run the judge');
  });

  it('merges a task of 400,000 rows cut in two (rows with one prompt and no ids share a task)', () => {
    const half = Array.from({ length: 200_000 }, (_, i) => ({ prompt: 'Q', reward: i % 2 }));
    const merged = mergePassAt(foldPassAt(half), foldPassAt(half));
    expect(taskCountOf(merged.tasks, 'Q')).toEqual({ n: 400_000, passes: 200_000 });
    expect(passAtFrom(merged, { intervals: false }).pass_at_1).toBe(0.5);
  });

  it('agrees on a degenerate set (every row one value)', () => {
    const rows = Array.from({ length: 8 }, (_, i) => ({ scenario_id: `t${i % 2}`, reward: 1 }));
    expectFoldsAgree(rows);
    expect(passAt(rows).note).toMatch(/^every row scored 1 \(8 of 8\)/);
  });
});
