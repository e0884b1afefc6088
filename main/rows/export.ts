// Export: a dataset's rows as row-v1 JSONL, as the SDK's export_row writes them (the teacher's block removed at
// any depth) and with the gold of their labels stamped on, as attach_labels stamps it. An unlabeled row with
// nothing to remove is written byte for byte as it was stored.
import fs from 'node:fs';
import { once } from 'node:events';
import { exportRowJson, scrubPrivileged } from '../../shared/schema/export-row';
import type { Db } from '../db/connection';
import { withGold } from './gold';
import { labelsByRowKey, type LabelRecord } from './labels';
import { rowPages } from './read';
import { storedRowKey } from './row-keys';

function exportedJson(json: string, labels: readonly LabelRecord[] | undefined): string {
  if (!labels || labels.length === 0) return exportRowJson(json);
  return JSON.stringify(scrubPrivileged(withGold(JSON.parse(json) as Record<string, unknown>, labels)));
}

/** The JSONL of rows [offset, offset + limit) in stored order (a browser downloads an export this way). */
export function exportLines(db: Db, datasetId: string, offset: number, limit: number): { text: string; rows: number } {
  const stored = db
    .prepare('SELECT row_key, row_json FROM rows WHERE dataset_id = ? ORDER BY ordinal LIMIT ? OFFSET ?')
    .all(datasetId, limit, offset) as Array<{ row_key: string | null; row_json: string }>;
  const labels = labelsByRowKey(db, datasetId);
  let text = '';
  for (const row of stored) text += exportedJson(row.row_json, labels.size === 0 ? undefined : labels.get(storedRowKey(row.row_key, row.row_json))) + '\n';
  return { text, rows: stored.length };
}

/**
 * Writes every row of the dataset to `file`, atomically: into `file.partial`, renamed over `file` once complete
 * (a failed export leaves no half file under the name asked for). Reads a page at a time between writes, so the
 * connection is never held busy while the disk catches up. Returns the rows written.
 */
export async function exportDataset(db: Db, datasetId: string, file: string): Promise<number> {
  const labels = labelsByRowKey(db, datasetId);
  const temp = `${file}.partial`;
  const stream = fs.createWriteStream(temp, { encoding: 'utf8' });
  const failed = new Promise<never>((_, reject) => stream.once('error', reject));
  failed.catch(() => undefined);
  let written = 0;
  try {
    let buffer = '';
    for (const page of rowPages(db, datasetId)) {
      for (const row of page) buffer += exportedJson(row.json, labels.size === 0 ? undefined : labels.get(storedRowKey(row.rowKey, row.json))) + '\n';
      written += page.length;
      if (buffer.length > 1 << 20) {
        if (!stream.write(buffer)) await Promise.race([once(stream, 'drain'), failed]);
        buffer = '';
      }
    }
    stream.end(buffer);
    await Promise.race([once(stream, 'finish'), failed]);
    await fs.promises.rename(temp, file);
  } catch (error) {
    stream.destroy();
    await fs.promises.rm(temp, { force: true });
    throw error;
  }
  return written;
}
