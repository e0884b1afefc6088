// Picking a file on the person's machine, and saving one. The desktop app opens a native dialog through the preload
// (`window.desk.pickFile`) and gets back a path the engine can read; a browser against `serve` has no such
// dialog (a web page never learns file paths), so callers fall back to uploading the file's content.
import type { FileKind } from '../../../shared/api/file-kinds';

export type { FileKind };

interface FilePicker {
  pickFile?(kind: FileKind): Promise<string | null>;
  /** A native save dialog (desktop app); absent in a browser, which downloads instead. */
  pickSavePath?(suggestedName: string): Promise<string | null>;
}

/** Whether this host can hand the engine a path (the desktop app) rather than the file's bytes. */
export function canPickPaths(): boolean {
  return typeof (window.desk as FilePicker | undefined)?.pickFile === 'function';
}

/** Opens the native dialog for one kind of file; null when cancelled or when this host has no dialog. */
export async function pickFile(kind: FileKind): Promise<string | null> {
  const picker = window.desk as FilePicker | undefined;
  if (typeof picker?.pickFile !== 'function') return null;
  return picker.pickFile(kind);
}

/** Whether this host can ask where to save a file (the desktop app) rather than download it. */
export function canPickSavePath(): boolean {
  return typeof (window.desk as FilePicker | undefined)?.pickSavePath === 'function';
}

/** Opens the native save dialog; null when cancelled or when this host has none. */
export async function pickSavePath(suggestedName: string): Promise<string | null> {
  const picker = window.desk as FilePicker | undefined;
  if (typeof picker?.pickSavePath !== 'function') return null;
  return picker.pickSavePath(suggestedName);
}

/** A name fit for a file: runs of other characters as `_`, at most `maxChars` long, `fallback` when nothing is left. */
export function safeFileStem(name: string, maxChars: number, fallback = 'dataset'): string {
  return name.replace(/[^\w.-]+/g, '_').slice(0, maxChars) || fallback;
}

/** Hands `href` (a blob: URL or serve's one-time download address) to the browser as a download named `name`. */
export function downloadLink(href: string, name: string): void {
  const link = document.createElement('a');
  link.href = href;
  link.download = name;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
}
