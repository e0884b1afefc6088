// Exporting a dataset from the app: to a path the person picks (desktop app: datasets.export, the engine writes
// the file atomically), or, in a browser, as a download assembled from datasets.exportText slices (the same
// export the engine writes: labeled rows carry their gold, the teacher's block removed).
import type { DeskClient } from '../../../../shared/api/client';
import { canPickSavePath, downloadLink, pickSavePath, safeFileStem } from '../../api/files';

const SLICE_ROWS = 5000;

export function exportFileName(name: string): string {
  return `${safeFileStem(name, 120)}.jsonl`;
}

/** The whole export as JSONL parts, slice by slice (a browser's download). */
export async function exportTextParts(desk: Pick<DeskClient, 'call'>, id: string, onRows?: (rows: number) => void): Promise<string[]> {
  const parts: string[] = [];
  let offset = 0;
  for (;;) {
    const slice = await desk.call('datasets.exportText', { id, offset, limit: SLICE_ROWS });
    parts.push(slice.text);
    offset += slice.rows;
    onRows?.(offset);
    if (slice.done || slice.rows === 0) return parts;
  }
}

/** Exports the dataset; returns what happened in words, or null when the person cancelled. */
export async function exportDataset(desk: Pick<DeskClient, 'call'>, id: string, name: string, onRows?: (rows: number) => void): Promise<string | null> {
  const fileName = exportFileName(name);
  if (canPickSavePath()) {
    const path = await pickSavePath(fileName);
    if (!path) return null;
    const done = await desk.call('datasets.export', { id, path });
    return `exported ${done.rows} rows to ${done.path}`;
  }
  const parts = await exportTextParts(desk, id, onRows);
  const url = URL.createObjectURL(new Blob(parts, { type: 'application/x-ndjson' }));
  downloadLink(url, fileName);
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return `downloaded ${fileName}`;
}
