// The import in progress or just finished: progress, the engine's verdict, the per-line errors.
import { create } from 'zustand';
import type { ImportResult } from '../../../shared/api/datasets';
import { desk, errorText } from '../api/desk';
import { newClientId } from '../api/ids';
import { datasetNameFor, runImport, type ImportHandle, type ImportProgress } from './import-runner';

export type ImportState =
  | { phase: 'idle' }
  | { phase: 'running'; fileName: string; progress: ImportProgress }
  | { phase: 'done'; fileName: string; result: ImportResult; skipInvalid: boolean }
  | { phase: 'failed'; fileName: string; message: string };

interface ImportStore {
  state: ImportState;
  skipInvalid: boolean;
  setSkipInvalid(value: boolean): void;
  start(file: File, name?: string): Promise<void>;
  /** The desktop app: a file picked in the native dialog, read by the engine itself (the file route, as the CLI). */
  startPath(filePath: string, name?: string): Promise<void>;
  cancel(): void;
  dismiss(): void;
}

let handle: ImportHandle | null = null;
let pathImportId: string | null = null;

export const useImport = create<ImportStore>((set, get) => ({
  state: { phase: 'idle' },
  skipInvalid: false,
  setSkipInvalid: (value) => set({ skipInvalid: value }),
  async start(file, name) {
    if (get().state.phase === 'running') return;
    const skipInvalid = get().skipInvalid;
    const fileName = file.name;
    const empty: ImportProgress = { bytesSent: 0, bytesTotal: file.size, linesRead: 0, rowsImported: 0, errors: 0 };
    set({ state: { phase: 'running', fileName, progress: empty } });
    handle = runImport(desk, file, { name: name?.trim() || datasetNameFor(fileName), skipInvalid }, (progress) =>
      set({ state: { phase: 'running', fileName, progress } }),
    );
    try {
      const result = await handle.done;
      set({ state: { phase: 'done', fileName, result, skipInvalid } });
    } catch (error) {
      set({ state: { phase: 'failed', fileName, message: errorText(error) } });
    } finally {
      handle = null;
    }
  },
  async startPath(filePath, name) {
    if (get().state.phase === 'running') return;
    const skipInvalid = get().skipInvalid;
    const fileName = filePath.split(/[\\/]/).pop() || filePath;
    const importId = newClientId('import');
    pathImportId = importId;
    set({ state: { phase: 'running', fileName, progress: { bytesSent: 0, bytesTotal: 0, linesRead: 0, rowsImported: 0, errors: 0 } } });
    const off = desk.on('import.progress', (p) => {
      if (p.import_id === importId) set({ state: { phase: 'running', fileName, progress: { bytesSent: 0, bytesTotal: 0, linesRead: p.lines_read, rowsImported: p.rows_imported, errors: p.errors } } });
    });
    try {
      const result = await desk.call('datasets.importFile', { path: filePath, name: name?.trim() || datasetNameFor(fileName), skip_invalid: skipInvalid, import_id: importId });
      set({ state: { phase: 'done', fileName, result, skipInvalid } });
    } catch (error) {
      set({ state: { phase: 'failed', fileName, message: errorText(error) } });
    } finally {
      off();
      pathImportId = null;
    }
  },
  cancel() {
    handle?.abort();
    if (pathImportId) void desk.call('datasets.importAbort', { import_id: pathImportId }).catch(() => undefined);
  },
  dismiss() {
    if (get().state.phase !== 'running') set({ state: { phase: 'idle' } });
  },
}));
