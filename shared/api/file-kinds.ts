// The kinds of file the desktop app's native open dialog offers, and the extensions each accepts.
// Declared once: Electron main filters the dialog with it, the preload checks the kind it is asked for.
export const FILE_KINDS = {
  rows: { label: 'Rows (JSONL)', extensions: ['jsonl'] },
  labels: { label: 'Labels (JSONL)', extensions: ['jsonl'] },
  tasks: { label: 'Tasks (JSONL)', extensions: ['jsonl'] },
  judge: { label: 'Judge (module or rules JSON)', extensions: ['mjs', 'js', 'json'] },
  rubric: { label: 'Rubric', extensions: ['json', 'md', 'txt'] },
  model: { label: 'Model (GGUF)', extensions: ['gguf'] },
  variants: { label: 'Variants (JSON)', extensions: ['json'] },
} as const satisfies Record<string, { label: string; extensions: readonly string[] }>;

export type FileKind = keyof typeof FILE_KINDS;

export function isFileKind(value: unknown): value is FileKind {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(FILE_KINDS, value);
}
