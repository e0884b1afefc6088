// A row's markers as the marker filters read them (rows.marker_flags, migration 0012): `|name=S|name=S|`, where S
// is 1 (the value 1 or true), 0 (0 or false) or p (any other number). A marker whose value is not a number or a
// boolean, or whose name holds a `|`, is left out (it cannot be filtered on); a row with no markers stores ''.
// The same text is made here from a row object (runs, grading, stamps) and by SQL for rows stored without it.
import type { Db } from '../db/connection';

export type MarkerState = '1' | '0' | 'p';

const stateOf = (value: unknown): MarkerState | null => {
  if (value === true || value === 1) return '1';
  if (value === false || value === 0) return '0';
  return typeof value === 'number' ? 'p' : null;
};

export function markerFlagsOf(markers: unknown): string {
  if (typeof markers !== 'object' || markers === null || Array.isArray(markers)) return '';
  let out = '';
  for (const [name, value] of Object.entries(markers)) {
    const state = stateOf(value);
    if (state !== null && !name.includes('|')) out += `|${name}=${state}`;
  }
  return out === '' ? '' : `${out}|`;
}

/** What a filter looks for in marker_flags. */
export const markerToken = (name: string, state: MarkerState) => `|${name}=${state}|`;

/** The SQL twin of markerFlagsOf over a row's stored JSON (its numbers and booleans only, as above). */
const FLAGS_SQL = `COALESCE((SELECT '|' || group_concat(key || '=' ||
    CASE WHEN type = 'true' THEN '1' WHEN type = 'false' THEN '0' WHEN value = 1 THEN '1' WHEN value = 0 THEN '0' ELSE 'p' END, '|') || '|'
  FROM json_each(rows.row_json, '$.markers')
  WHERE json_type(rows.row_json, '$.markers') = 'object' AND type IN ('integer', 'real', 'true', 'false') AND instr(key, '|') = 0), '')`;

/**
 * Fills marker_flags on the dataset's rows stored without it (an import, rows older than the column). A derived
 * column: it changes nothing a reader sees, so no version moves. Returns how many rows were filled.
 */
export function fillMarkerFlags(db: Db, datasetId: string): number {
  const version = versionOf(db, datasetId);
  if (filledAt(db).get(datasetId) === version) return 0;
  const missing = db.prepare('SELECT 1 FROM rows WHERE dataset_id = ? AND marker_flags IS NULL LIMIT 1').get(datasetId);
  const filled = missing ? db.prepare(`UPDATE rows SET marker_flags = ${FLAGS_SQL} WHERE dataset_id = ? AND marker_flags IS NULL`).run(datasetId).changes : 0;
  if (!db.inTransaction) filledAt(db).set(datasetId, version);
  return filled;
}

const versionOf = (db: Db, datasetId: string) => (db.prepare('SELECT version FROM datasets WHERE id = ?').pluck().get(datasetId) as number | undefined) ?? -1;

/**
 * The dataset version at which each dataset's rows were last found all filled, per connection. Looking for a row
 * without flags reads every row of a dataset that has none left (no index holds the column), and the label queue
 * asks on every page once the marker facet is shown: some 10-30 ms of the engine's thread on 100k rows, which each
 * label's trust panel waited behind. A version change (rows written) looks again.
 */
const filledVersions = new WeakMap<Db, Map<string, number>>();
function filledAt(db: Db): Map<string, number> {
  let found = filledVersions.get(db);
  if (!found) filledVersions.set(db, (found = new Map()));
  return found;
}

/** Rows filled per turn of the event loop by the background fill: some milliseconds of the engine's thread. */
const GRADUAL_ROWS = 1000;

/**
 * The same fill, a page of rows per turn of the event loop: the label queue runs it after its first page, so the
 * marker names (a facet of the queue) are ready without the first row waiting for all 100k rows' JSON to be read.
 * It walks the rows in ordinal order from where its last page ended (the ordinal index gives each page's end): a
 * page that looked for rows without flags from the first row again read every row filled before it, and on 100k
 * rows the turns grew to tens of milliseconds, which labels stored meanwhile waited for (label bench p95 store
 * 15 ms became 27-46 ms, trust panel p95 32 ms became 78 ms).
 */
export async function fillMarkerFlagsGradually(db: Db, datasetId: string): Promise<void> {
  const version = versionOf(db, datasetId);
  if (filledAt(db).get(datasetId) === version) return;
  if (!db.prepare('SELECT 1 FROM rows WHERE dataset_id = ? AND marker_flags IS NULL LIMIT 1').get(datasetId)) return void filledAt(db).set(datasetId, version);
  const pageEnd = db.prepare('SELECT ordinal FROM rows WHERE dataset_id = ? AND ordinal > ? ORDER BY ordinal LIMIT 1 OFFSET ?').pluck();
  const fill = db.prepare(`UPDATE rows SET marker_flags = ${FLAGS_SQL} WHERE dataset_id = ? AND ordinal > ? AND ordinal <= ? AND marker_flags IS NULL`);
  for (let after = Number.MIN_SAFE_INTEGER; db.open; ) {
    const end = (pageEnd.get(datasetId, after, GRADUAL_ROWS - 1) as number | undefined) ?? Number.MAX_SAFE_INTEGER;
    fill.run(datasetId, after, end);
    // Rows written meanwhile moved the version: the next caller looks again.
    if (end === Number.MAX_SAFE_INTEGER) return void filledAt(db).set(datasetId, version);
    after = end;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

type NamesCache = Map<string, { version: number; names: string[] }>;
const namesByDb = new WeakMap<Db, NamesCache>();

/**
 * The marker names the dataset's rows carry as a number or a boolean (what a marker filter can be set to),
 * sorted; read from marker_flags (filled first) and kept per dataset version.
 */
export function markerNames(db: Db, datasetId: string): string[] {
  fillMarkerFlags(db, datasetId);
  const version = versionOf(db, datasetId);
  let cache = namesByDb.get(db);
  if (!cache) namesByDb.set(db, (cache = new Map()));
  const kept = cache.get(datasetId);
  if (kept && kept.version === version) return kept.names;
  const names = new Set<string>();
  const distinct = db.prepare("SELECT DISTINCT marker_flags FROM rows WHERE dataset_id = ? AND marker_flags <> ''").pluck().all(datasetId) as string[];
  for (const flags of distinct) for (const part of flags.split('|')) if (part) names.add(part.slice(0, part.lastIndexOf('=')));
  const sorted = [...names].sort();
  cache.set(datasetId, { version, names: sorted });
  return sorted;
}

/** The ordinals of the dataset's rows whose marker `name` is at `state` (marker_flags filled first). */
export function markerOrdinals(db: Db, datasetId: string, name: string, state: MarkerState): Set<number> {
  fillMarkerFlags(db, datasetId);
  const found = db.prepare('SELECT ordinal FROM rows WHERE dataset_id = ? AND instr(marker_flags, ?) > 0').pluck().all(datasetId, markerToken(name, state)) as number[];
  return new Set(found);
}
