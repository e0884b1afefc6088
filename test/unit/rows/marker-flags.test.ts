// rows.marker_flags (rows/marker-flags.ts): an import stores none; the label queue's background read fills them a
// page per turn, walking the rows by ordinal. Over several pages every row must get what markerFlagsOf gives its
// markers (numbers and booleans only).
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../main/db/connection';
import { createEngine, type Engine } from '../../../main/engine/engine';
import { fillMarkerFlagsGradually, markerNames } from '../../../main/rows/index';
import { markerFlagsOf } from '../../../main/rows/marker-flags';
import { tempDir, writeJsonl } from '../../helpers/temp';

let db: Db | null = null;
afterEach(() => {
  db?.close();
  db = null;
});

const markersOf = (i: number) =>
  i % 11 === 0 ? undefined : { polite: i % 2, hedged: i % 3 === 0, score: i / 7, note: 'text is left out', ...(i % 5 === 0 ? { 'a|b': 1 } : {}) };

async function importedRows(n: number): Promise<{ dbPath: string; id: string }> {
  const dir = tempDir();
  const dbPath = path.join(dir, 'desk.db');
  const engine: Engine = createEngine({ dbPath });
  const rows = Array.from({ length: n }, (_, i) => ({ scenario_id: `t${i}`, prompt: `p${i}`, final_text: `r${i}`, reward: i % 2, ...(markersOf(i) ? { markers: markersOf(i) } : {}) }));
  const { dataset_id: id } = await engine.call('datasets.importFile', { path: writeJsonl(path.join(dir, 'rows.jsonl'), rows), name: 'flags' });
  await engine.close();
  return { dbPath, id: id as string };
}

describe('marker_flags', () => {
  it('are filled gradually on every row, page after page, as markerFlagsOf makes them', async () => {
    const { dbPath, id } = await importedRows(2500);
    db = openDatabase(dbPath);
    expect(db.prepare('SELECT count(*) FROM rows WHERE dataset_id = ? AND marker_flags IS NULL').pluck().get(id)).toBe(2500);
    await fillMarkerFlagsGradually(db, id);
    const stored = db.prepare('SELECT ordinal, marker_flags FROM rows WHERE dataset_id = ? ORDER BY ordinal').raw().all(id) as Array<[number, string]>;
    expect(stored).toHaveLength(2500);
    stored.forEach(([ordinal, flags], i) => expect(flags, `row ${ordinal}`).toBe(markerFlagsOf(markersOf(i))));
    expect(markerNames(db, id)).toEqual(['hedged', 'polite', 'score']);
    // A second fill finds nothing to do.
    await fillMarkerFlagsGradually(db, id);
    expect(db.prepare('SELECT count(*) FROM rows WHERE dataset_id = ? AND marker_flags IS NULL').pluck().get(id)).toBe(0);
  });
});
