// Routes as data: parse `#/datasets/ID/measure` and build links. Pure, so it is unit-tested under Node.
export type Section = 'runs' | 'label' | 'compare' | 'sync' | 'settings';

export interface Route {
  section: Section;
  /** Under "Runs and datasets": which page; under Label, 'label' with the dataset's id. */
  page: 'datasets' | 'dataset' | 'new-run' | 'run' | 'models' | 'label' | 'none';
  id: string | null;
  tab: 'rows' | 'measure';
  /** Compare: the candidate beside the baseline in `id` (`#/compare/BASELINE/CANDIDATE`). */
  other: string | null;
}

const SECTIONS: Section[] = ['runs', 'label', 'compare', 'sync', 'settings'];

export function parseHash(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  const base: Route = { section: 'runs', page: 'datasets', id: null, tab: 'rows', other: null };
  const [head, id, tab] = parts;
  if (!head || head === 'datasets') {
    if (id) return { ...base, page: 'dataset', id, tab: tab === 'measure' ? 'measure' : 'rows' };
    return base;
  }
  if (head === 'runs') {
    if (id === 'new') return { ...base, page: 'new-run' };
    if (id) return { ...base, page: 'run', id };
    return base;
  }
  if (head === 'models') return { ...base, page: 'models' };
  if (head === 'label') return { ...base, section: 'label', page: id ? 'label' : 'none', id: id ?? null };
  if (head === 'compare') return { ...base, section: 'compare', page: 'none', id: id ?? null, other: tab ?? null };
  if ((SECTIONS as string[]).includes(head)) return { ...base, section: head as Section, page: 'none' };
  return base;
}

export function hrefFor(route: Partial<Route> & { section?: Section }): string {
  const section = route.section ?? 'runs';
  if (section === 'label' && route.id) return `#/label/${encodeURIComponent(route.id)}`;
  if (section === 'compare' && route.id) {
    return `#/compare/${encodeURIComponent(route.id)}${route.other ? `/${encodeURIComponent(route.other)}` : ''}`;
  }
  if (section !== 'runs') return `#/${section}`;
  switch (route.page) {
    case 'dataset':
      return `#/datasets/${encodeURIComponent(route.id ?? '')}${route.tab === 'measure' ? '/measure' : ''}`;
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
