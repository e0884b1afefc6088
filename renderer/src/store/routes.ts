// Routes as data: parse `#/datasets/ID/measure` and build links. Pure, so it is unit-tested under Node.
export type Section = 'runs' | 'label' | 'compare' | 'sync' | 'settings';
/** A dataset's views: its rows, its statistics, and what a policy trained on its reward would learn (hack_scan). */
export type DatasetTab = 'rows' | 'measure' | 'learn' | 'train';

export interface Route {
  section: Section;
  /** Under "Runs and datasets": which page; under Label, 'label' with the dataset's id; under Compare, its sub-pages. */
  page: 'datasets' | 'dataset' | 'new-run' | 'run' | 'models' | 'label' | 'pairs' | 'none' | CompareSubpage;
  id: string | null;
  tab: DatasetTab;
  /** Compare: the candidate beside the baseline in `id` (`#/compare/BASELINE/CANDIDATE`). */
  other: string | null;
}

/** Under "Compare and sweeps": the sweeps list, one sweep, the agents list, one agent's verdict. */
export type CompareSubpage = 'sweeps' | 'sweep' | 'agents' | 'agent';

const SECTIONS: Section[] = ['runs', 'label', 'compare', 'sync', 'settings'];

export function parseHash(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  const base: Route = { section: 'runs', page: 'datasets', id: null, tab: 'rows', other: null };
  const [head, id, tab] = parts;
  if (!head || head === 'datasets') {
    if (id) return { ...base, page: 'dataset', id, tab: tab === 'measure' || tab === 'learn' || tab === 'train' ? tab : 'rows' };
    return base;
  }
  if (head === 'runs') {
    if (id === 'new') return { ...base, page: 'new-run' };
    if (id) return { ...base, page: 'run', id };
    return base;
  }
  if (head === 'models') return { ...base, page: 'models' };
  // Run and dataset ids are run-… and ds-…, so these words never stand for a baseline.
  if (head === 'compare' && (id === 'sweeps' || id === 'agents')) {
    const one = id === 'sweeps' ? 'sweep' : 'agent';
    return { ...base, section: 'compare', page: tab ? one : id, id: tab ?? null };
  }
  // `#/label/pairs/A/B`: the pair mode, A's and B's replies to one task side by side.
  if (head === 'label' && id === 'pairs' && tab && parts[3]) return { ...base, section: 'label', page: 'pairs', id: tab, other: parts[3] };
  if (head === 'label') return { ...base, section: 'label', page: id ? 'label' : 'none', id: id ?? null };
  if (head === 'compare') return { ...base, section: 'compare', page: 'none', id: id ?? null, other: tab ?? null };
  // `#/sync/ID`: the Sync page with that dataset or run chosen to push.
  if (head === 'sync') return { ...base, section: 'sync', page: 'none', id: id ?? null };
  if ((SECTIONS as string[]).includes(head)) return { ...base, section: head as Section, page: 'none' };
  return base;
}

export function hrefFor(route: Partial<Route> & { section?: Section }): string {
  const section = route.section ?? 'runs';
  if (section === 'compare' && (route.page === 'sweeps' || route.page === 'agents')) return `#/compare/${route.page}`;
  if (section === 'compare' && (route.page === 'sweep' || route.page === 'agent')) return `#/compare/${route.page}s/${encodeURIComponent(route.id ?? '')}`;
  if (section === 'label' && route.page === 'pairs' && route.id && route.other) return `#/label/pairs/${encodeURIComponent(route.id)}/${encodeURIComponent(route.other)}`;
  if (section === 'label' && route.id) return `#/label/${encodeURIComponent(route.id)}`;
  if (section === 'sync' && route.id) return `#/sync/${encodeURIComponent(route.id)}`;
  if (section === 'compare' && route.id) {
    return `#/compare/${encodeURIComponent(route.id)}${route.other ? `/${encodeURIComponent(route.other)}` : ''}`;
  }
  if (section !== 'runs') return `#/${section}`;
  switch (route.page) {
    case 'dataset':
      return `#/datasets/${encodeURIComponent(route.id ?? '')}${route.tab === 'measure' || route.tab === 'learn' || route.tab === 'train' ? `/${route.tab}` : ''}`;
    case 'new-run':
      return '#/runs/new';
    case 'run':
      return `#/runs/${encodeURIComponent(route.id ?? '')}`;
    case 'models':
      return '#/models';
    default:
      return '#/datasets';
  }
}
