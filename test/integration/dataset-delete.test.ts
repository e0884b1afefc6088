// Delete through the typed API and `while-desk delete`: a dataset with graded copies is refused with a message
// naming them, unless --with-copies (then the copies go too). Change events come from the write wrapper.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../main/cli/index';
import { createEngine } from '../../main/engine/engine';
import { tempDir, writeJsonl } from '../helpers/temp';

async function cli(...args: string[]) {
  let out = '';
  let err = '';
  const code = await runCli(args, { out: (text) => void (out += text), err: (text) => void (err += text), isTty: false });
  return { code, out, err };
}

function setup() {
  const dir = tempDir();
  const db = path.join(dir, 'desk.db');
  const rows = writeJsonl(path.join(dir, 'rows.jsonl'), [0, 1, 2].map((i) => ({ schema_version: '1', prompt: `p${i}`, steps: [], final_text: i ? 'done' : 'no', scenario_id: `t${i}`, rollout_index: 0 })));
  const judge = path.join(dir, 'judge.mjs');
  fs.writeFileSync(judge, 'export default function done_judge(row) { return { reward: row.final_text === "done" ? 1 : 0 }; }\n');
  return { dir, db, rows, judge };
}

describe('deleting a dataset', () => {
  it('refuses one with graded copies, naming them; --with-copies removes them all', async () => {
    const { db, rows, judge } = setup();
    const imported = JSON.parse((await cli('import', rows, '--db', db, '--json')).out) as { dataset_id: string };
    const source = imported.dataset_id;
    const graded = JSON.parse((await cli('grade', source, '--judge', judge, '--db', db, '--json')).out) as { dataset_id: string };
    const regraded = JSON.parse((await cli('grade', graded.dataset_id, '--judge', judge, '--db', db, '--json')).out) as { dataset_id: string };

    const refused = await cli('delete', source, '--db', db);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(graded.dataset_id);
    expect(refused.err).toMatch(/graded copy.*--with-copies/);
    const listed = JSON.parse((await cli('datasets', '--json', '--db', db)).out) as Array<{ id: string }>;
    expect(listed.map((one) => one.id).sort()).toEqual([source, graded.dataset_id, regraded.dataset_id].sort());

    const deleted = await cli('delete', source, '--with-copies', '--json', '--db', db);
    expect(deleted.err).toBe('');
    expect(deleted.code).toBe(0);
    expect(JSON.parse(deleted.out)).toEqual({ deleted: true, deleted_ids: [regraded.dataset_id, graded.dataset_id, source] });
    expect(JSON.parse((await cli('datasets', '--json', '--db', db)).out)).toEqual([]);
    const missing = await cli('delete', source, '--db', db);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/no dataset or run with id/);
  });

  it('deletes a dataset without copies through the API, rows and labels included, and publishes datasets.changed', async () => {
    const { db, rows } = setup();
    const engine = createEngine({ dbPath: db });
    try {
      const events: string[] = [];
      engine.onAny((event, payload) => events.push(`${event}:${JSON.stringify(payload)}`));
      const id = (await engine.call('datasets.importFile', { path: rows, name: 'x' })).dataset_id as string;
      expect(events.some((event) => event.startsWith(`datasets.changed:{"id":"${id}"`))).toBe(true);
      expect(events.some((event) => event.startsWith(`rows.changed:{"dataset_id":"${id}"`))).toBe(true);
      await engine.call('labels.append', { dataset_id: id, row_key: 't0#0', annotator: 'a', value: 1 });
      events.length = 0;
      expect(await engine.call('datasets.delete', { id })).toEqual({ deleted: true, deleted_ids: [id] });
      expect(events).toEqual([`datasets.changed:{"id":"${id}"}`]);
      const counts = engine.ctx.db.prepare('SELECT (SELECT COUNT(*) FROM rows) AS rows, (SELECT COUNT(*) FROM labels) AS labels, (SELECT COUNT(*) FROM datasets) AS datasets').get();
      expect(counts).toEqual({ rows: 0, labels: 0, datasets: 0 });
      expect(await engine.call('datasets.delete', { id })).toEqual({ deleted: false, deleted_ids: [] });
    } finally {
      await engine.close();
    }
  });
});
