// Rows of one dataset, fetched in pages of 200 as the table scrolls; pages cached, never the whole set at once.
import { create } from 'zustand';
import type { RowListItem, RowSortKey } from '../../../shared/api/datasets';
import type { QueueFilters } from '../../../shared/api/labels';
import { desk, errorText } from '../api/desk';

export const PAGE_SIZE = 200;
const MAX_PAGES = 60; // about 12k rows kept; older pages are dropped and fetched again if needed
const MAX_IN_FLIGHT = 3;

export interface RowsView {
  datasetId: string;
  sort: RowSortKey;
  descending: boolean;
  /** Only the rows where this marker is at this value (docs/markers.md); none: every row. */
  marker?: QueueFilters['marker'];
}

interface RowsState extends RowsView {
  total: number | null;
  /** Bumped whenever a page lands, so the table re-renders. */
  version: number;
  error: string | null;
  /** Position (in the current sort order) of the row open in the row view, or null. */
  open: number | null;
  setView(view: RowsView): void;
  rowAt(position: number): RowListItem | undefined;
  /** Ask for the pages covering [first, last]; only the latest request is honoured while scrolling. */
  want(first: number, last: number): void;
  setOpen(position: number | null): void;
}

let pages = new Map<number, RowListItem[]>();
/** After a reload, the old pages stay on screen until their fresh copies land (no flicker while a run grows). */
let stalePages = new Map<number, RowListItem[]>();
let inFlight = new Set<number>();
let wanted: number[] = [];
let lastRange: [number, number] = [0, 0];
let generation = 0;
/** The dataset version last seen in `rows.changed`; a newer one reloads the pages on screen. */
let seenVersion = -1;

function viewKey(view: RowsView): string {
  return `${view.datasetId}|${view.sort}|${view.descending}|${view.marker ? `${view.marker.value}:${view.marker.name}` : ''}`;
}

export const useRows = create<RowsState>((set, get) => {
  function pump(): void {
    const { datasetId, sort, descending, marker } = get();
    while (inFlight.size < MAX_IN_FLIGHT && wanted.length > 0) {
      const page = wanted.shift()!;
      if (pages.has(page) || inFlight.has(page)) continue;
      inFlight.add(page);
      const mine = generation;
      desk
        .call('datasets.rows', { id: datasetId, sort, descending, marker, offset: page * PAGE_SIZE, limit: PAGE_SIZE })
        .then(
          (reply) => {
            if (mine !== generation) return;
            pages.set(page, reply.rows);
            stalePages.delete(page);
            if (pages.size > MAX_PAGES) pages.delete(pages.keys().next().value!);
            set((state) => ({ total: reply.total, version: state.version + 1, error: null }));
          },
          (error: unknown) => {
            if (mine === generation) set({ error: errorText(error) });
          },
        )
        .finally(() => {
          if (mine !== generation) return;
          inFlight.delete(page);
          pump();
        });
    }
  }

  return {
    datasetId: '',
    sort: 'ordinal',
    descending: false,
    total: null,
    version: 0,
    error: null,
    open: null,
    setView(view) {
      if (viewKey(view) === viewKey(get())) return;
      const sameDataset = view.datasetId === get().datasetId;
      if (!sameDataset) seenVersion = -1;
      generation++;
      pages = new Map();
      stalePages = new Map();
      inFlight = new Set();
      wanted = [];
      set({ marker: undefined, ...view, total: sameDataset ? get().total : null, version: get().version + 1, error: null, open: null });
      get().want(0, 0);
    },
    rowAt(position) {
      const index = Math.floor(position / PAGE_SIZE);
      const page = pages.get(index) ?? stalePages.get(index);
      return page?.[position % PAGE_SIZE];
    },
    want(first, last) {
      const from = Math.floor(Math.max(0, first) / PAGE_SIZE);
      const to = Math.floor(Math.max(0, last) / PAGE_SIZE);
      lastRange = [first, last];
      const next: number[] = [];
      for (let page = from; page <= to; page++) {
        const cached = pages.get(page);
        if (cached) {
          // Least recently wanted pages are the first dropped: move this one to the back.
          pages.delete(page);
          pages.set(page, cached);
        } else if (!inFlight.has(page)) next.push(page);
      }
      wanted = next;
      pump();
    },
    setOpen(position) {
      const total = get().total ?? 0;
      if (position !== null && (position < 0 || position >= total)) return;
      set({ open: position });
      if (position !== null) get().want(position, position);
    },
  };
});

/** Drops cached pages (e.g. after the dataset changed) and fetches what is on screen again. */
export function reloadRows(): void {
  generation++;
  stalePages = pages;
  pages = new Map();
  inFlight = new Set();
  wanted = [];
  useRows.setState((state) => ({ version: state.version + 1 }));
  useRows.getState().want(...lastRange);
}

let reloadTimer: ReturnType<typeof setTimeout> | null = null;
const RELOAD_EVERY_MS = 500;

desk.on('rows.changed', (event) => {
  if (event.dataset_id !== useRows.getState().datasetId || event.version === seenVersion) return;
  seenVersion = event.version;
  // A run commits many times a second: reload at most twice a second, with the latest version.
  if (reloadTimer) return;
  reloadTimer = setTimeout(() => {
    reloadTimer = null;
    reloadRows();
  }, RELOAD_EVERY_MS);
});
