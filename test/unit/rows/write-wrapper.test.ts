// The write wrapper: one transaction per write handler, change events published after the commit, nothing
// published as changed when the transaction rolled back.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../../main/engine/engine';
import { write } from '../../../main/engine/handlers/write';
import { appendLabel, ensureRowKeys } from '../../../main/rows/index';
import { tempDir, writeJsonl } from '../../helpers/temp';

let engine: Engine | null = null;
afterEach(async () => {
  await engine?.close();
  engine = null;
});

describe('write()', () => {
  it('commits with the handler, publishes rows.changed after, and rolls back everything on a throw', async () => {
    const dir = tempDir();
    engine = createEngine({ dbPath: path.join(dir, 'desk.db') });
    const file = writeJsonl(path.join(dir, 'rows.jsonl'), [{ schema_version: '1', prompt: 'p', steps: [], final_text: 'f', scenario_id: 't', rollout_index: 0 }]);
    const id = (await engine.call('datasets.importFile', { path: file, name: 'x' })).dataset_id as string;
    const { ctx } = engine;
    ensureRowKeys(ctx.db, id);
    const events: Array<{ dataset_id: string; version: number }> = [];
    engine.on('rows.changed', (event) => events.push(event));
    const version = () => ctx.db.prepare('SELECT version FROM datasets WHERE id = ?').pluck().get(id) as number;
    const labels = () => ctx.db.prepare('SELECT COUNT(*) FROM labels').pluck().get() as number;
    const label = () => appendLabel(ctx.db, { datasetId: id, rowKey: 't#0', annotator: 'a', kind: 'human', value: 1 });

    const before = version();
    const twice = write<'labels.list'>(() => {
      label();
      label();
      return { labels: [] };
    });
    await twice({ dataset_id: id }, ctx);
    expect(labels()).toBe(2);
    expect(version()).toBe(before + 2);
    expect(events).toEqual([{ dataset_id: id, version: before + 2 }]); // one event, after the commit, with the latest version

    events.length = 0;
    const failing = write<'labels.list'>(() => {
      label();
      throw new Error('halfway');
    });
    await expect(async () => failing({ dataset_id: id }, ctx)).rejects.toThrow('halfway');
    expect(labels()).toBe(2);
    expect(version()).toBe(before + 2);
    expect(events.every((event) => event.version === before + 2)).toBe(true);
  });
});
