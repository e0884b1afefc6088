// The labeling desk's state: the queue window (labels.queue, a page at a time), where the annotator is, the rows
// already fetched (the next few are prefetched with datasets.row), and the labels given in this session (undo).
// A label is painted at once (optimistic) and stored in the background; a failed store is shown and rolled back.
import { create } from 'zustand';
import type { QueueFilters, QueueItem, QueueOrder } from '../../../../shared/api/labels';
import { desk, errorText } from '../../api/desk';

type Row = Record<string, unknown>;

const PAGE = 200;
/** The first page is short, so the first row comes sooner; the next page is asked for well before it runs out. */
const FIRST_PAGE = 50;
const PREFETCH = 4;
const PROGRESS_DELAY_MS = 800;
const FACETS_RETRY_MS = 1500;
const ANNOTATOR_KEY = 'while-desk.annotator';

export interface Progress {
  rows: number;
  gold_rows: number;
  mine: number;
  annotators: Array<{ annotator: string; labeled: number }>;
}

interface Given {
  index: number;
  rowKey: string;
  before: 0 | 1 | null;
}

interface LabelState {
  datasetId: string | null;
  annotator: string;
  order: QueueOrder;
  filters: QueueFilters;
  items: QueueItem[];
  total: number;
  progress: Progress | null;
  facets: { tasks: string[]; categories: string[]; judge_statuses: string[]; markers: string[] };
  index: number;
  loading: boolean;
  error: string | null;
  /** Bumped when a fetched row arrives, so the row view re-renders. */
  rowsVersion: number;
  /** Bumped when a label is stored (the trust panel and the summary follow it). */
  stored: number;
  /** Set once the dataset's first page has come (with its first rows): the trust panel loads after that. */
  settled: boolean;
  given: Given[];
  open(datasetId: string): void;
  /** While the annotator types their name: has the engine read the dataset's queue, so it opens at once after. */
  warm(datasetId: string): void;
  setAnnotator(name: string): void;
  setOrder(order: QueueOrder): void;
  setFilters(filters: QueueFilters): void;
  move(delta: number): void;
  label(value: 0 | 1): void;
  undo(): void;
  note(text: string): void;
  clearError(): void;
}

const rows = new Map<number, Row>();
const fetching = new Set<number>();
let generation = 0;

function storedAnnotator(): string {
  try {
    return window.localStorage.getItem(ANNOTATOR_KEY) ?? '';
  } catch {
    return '';
  }
}

export function cachedRow(ordinal: number): Row | undefined {
  return rows.get(ordinal);
}

export const useLabel = create<LabelState>((set, get) => {
  function prefetch(): void {
    const { items, index, datasetId } = get();
    if (!datasetId) return;
    for (let i = index; i < Math.min(items.length, index + PREFETCH + 1); i++) {
      const ordinal = items[i].ordinal;
      if (rows.has(ordinal) || fetching.has(ordinal)) continue;
      fetching.add(ordinal);
      const mine = generation;
      desk.call('datasets.row', { id: datasetId, ordinal }).then(
        (found) => {
          fetching.delete(ordinal);
          if (mine !== generation) return;
          rows.set(ordinal, found.row);
          set((s) => ({ rowsVersion: s.rowsVersion + 1 }));
        },
        (error: unknown) => {
          fetching.delete(ordinal);
          if (mine === generation) set({ error: errorText(error) });
        },
      );
    }
    if (index > items.length - 20 && items.length < get().total) void loadPage(items.length);
  }

  let pageInFlight: string | null = null;
  async function loadPage(offset: number): Promise<void> {
    const { datasetId, annotator, order, filters } = get();
    const asked = `${generation}:${offset}`;
    if (!datasetId || pageInFlight === asked) return;
    pageInFlight = asked;
    const mine = generation;
    try {
      // The first page brings its first rows, so the first row paints without another round trip.
      const withRows = offset === 0 ? PREFETCH + 1 : 0;
      const out = await desk.call('labels.queue', { dataset_id: datasetId, annotator, order, filters, offset, limit: offset === 0 ? FIRST_PAGE : PAGE, with_rows: withRows });
      if (mine !== generation) return;
      for (const { ordinal, row } of out.rows ?? []) rows.set(ordinal, row);
      set((s) => {
        const seen = new Set(s.items.map((item) => item.ordinal));
        const items = offset === 0 ? out.items : [...s.items, ...out.items.filter((item) => !seen.has(item.ordinal))];
        return { items, total: out.total, progress: out.progress, facets: out.facets, loading: false, error: null, settled: true, rowsVersion: s.rowsVersion + 1 };
      });
      prefetch();
      // A large dataset's filter choices come a moment after its first rows.
      if (!out.facets_ready) setTimeout(refreshProgress, FACETS_RETRY_MS);
    } catch (error) {
      if (mine === generation) set({ loading: false, error: errorText(error), settled: true });
    } finally {
      if (pageInFlight === asked) pageInFlight = null;
    }
  }

  function restart(patch: Partial<LabelState>): void {
    generation++;
    set({ ...patch, items: [], total: 0, index: 0, loading: true, error: null, given: [] });
    void loadPage(0);
  }

  // Everyone's progress is re-read a while after labels land (a light labels.queue call), not after each one.
  let progressTimer: ReturnType<typeof setTimeout> | null = null;
  function refreshProgress(): void {
    if (progressTimer) return;
    progressTimer = setTimeout(() => {
      progressTimer = null;
      const { datasetId, annotator, order, filters } = get();
      if (!datasetId) return;
      const mine = generation;
      desk.call('labels.queue', { dataset_id: datasetId, annotator, order, filters, offset: 0, limit: 0 }).then(
        (out) => {
          if (mine !== generation) return;
          set({ progress: out.progress, facets: out.facets });
          if (!out.facets_ready) setTimeout(refreshProgress, FACETS_RETRY_MS);
        },
        () => undefined,
      );
    }, PROGRESS_DELAY_MS);
  }

  function store(rowKey: string, value: 0 | 1 | null, note: string | undefined, rollback: () => void): void {
    const { datasetId, annotator } = get();
    if (!datasetId) return;
    desk.call('labels.append', { dataset_id: datasetId, row_key: rowKey, annotator, kind: 'human', value, note }).then(
      () => {
        set((s) => ({ stored: s.stored + 1 }));
        refreshProgress();
      },
      (error: unknown) => {
        rollback();
        set({ error: `The label for ${rowKey} was not stored: ${errorText(error)}` });
      },
    );
  }

  function setMine(index: number, value: 0 | 1 | null): void {
    set((s) => {
      const items = s.items.slice();
      const item = items[index];
      if (!item) return {};
      const delta = (value === null ? 0 : 1) - (item.my_label === null ? 0 : 1);
      items[index] = { ...item, my_label: value };
      return { items, progress: s.progress ? { ...s.progress, mine: s.progress.mine + delta } : s.progress };
    });
  }

  return {
    datasetId: null,
    annotator: storedAnnotator(),
    order: 'stratified',
    filters: {},
    items: [],
    total: 0,
    progress: null,
    facets: { tasks: [], categories: [], judge_statuses: [], markers: [] },
    index: 0,
    loading: false,
    error: null,
    rowsVersion: 0,
    stored: 0,
    settled: false,
    given: [],
    open(datasetId) {
      if (get().datasetId === datasetId && get().items.length) return;
      rows.clear();
      restart({ datasetId, order: 'stratified', filters: {}, settled: get().datasetId === datasetId && get().settled });
    },
    warm(datasetId) {
      desk.call('labels.queue', { dataset_id: datasetId, limit: 0 }).catch(() => undefined);
    },
    setAnnotator(name) {
      try {
        window.localStorage.setItem(ANNOTATOR_KEY, name);
      } catch {
        // Private windows may refuse storage: the name then lasts for this page only.
      }
      restart({ annotator: name });
    },
    setOrder(order) {
      restart({ order });
    },
    setFilters(filters) {
      restart({ filters });
    },
    move(delta) {
      const { index, items } = get();
      const next = Math.max(0, Math.min(items.length - 1, index + delta));
      if (next !== index) set({ index: next });
      prefetch();
    },
    label(value) {
      const { index, items } = get();
      const item = items[index];
      if (!item) return;
      const before = item.my_label;
      setMine(index, value);
      set((s) => ({ given: [...s.given, { index, rowKey: item.row_key, before }], index: Math.min(s.items.length - 1, index + 1) }));
      prefetch();
      store(item.row_key, value, undefined, () => setMine(index, before));
    },
    undo() {
      const { given } = get();
      const last = given[given.length - 1];
      if (!last) return;
      const was = get().items[last.index]?.my_label ?? null;
      set({ given: given.slice(0, -1), index: last.index });
      setMine(last.index, null);
      // Undo appends a withdrawal: the earlier record stays, and no longer counts.
      store(last.rowKey, null, undefined, () => setMine(last.index, was));
      prefetch();
    },
    note(text) {
      const { index, items } = get();
      const item = items[index];
      if (!item || !text.trim()) return;
      if (item.my_label === null) {
        set({ error: 'Label the row first (1 or 0), then add the note: a note travels with a label.' });
        return;
      }
      store(item.row_key, item.my_label, text.trim(), () => undefined);
    },
    clearError() {
      set({ error: null });
    },
  };
});
