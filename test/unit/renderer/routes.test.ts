// The renderer's hash routes: every link the app builds parses back to the same place.
import { describe, expect, it } from 'vitest';
import { hrefFor, parseHash } from '../../../renderer/src/store/routes';

describe('renderer routes', () => {
  it('parses the datasets list, a dataset, its measure tab, runs and models', () => {
    expect(parseHash('')).toMatchObject({ section: 'runs', page: 'datasets' });
    expect(parseHash('#/datasets/ds-1')).toMatchObject({ page: 'dataset', id: 'ds-1', tab: 'rows' });
    expect(parseHash('#/datasets/ds-1/measure')).toMatchObject({ page: 'dataset', id: 'ds-1', tab: 'measure' });
    expect(parseHash('#/datasets/ds-1/learn')).toMatchObject({ page: 'dataset', id: 'ds-1', tab: 'learn' });
    expect(parseHash('#/runs/new')).toMatchObject({ page: 'new-run' });
    expect(parseHash('#/runs/run-9')).toMatchObject({ page: 'run', id: 'run-9' });
    expect(parseHash('#/models')).toMatchObject({ page: 'models' });
    expect(parseHash('#/label')).toMatchObject({ section: 'label', page: 'none' });
    expect(parseHash('#/label/pairs/ds-a/ds-b')).toMatchObject({ section: 'label', page: 'pairs', id: 'ds-a', other: 'ds-b' });
    expect(parseHash(hrefFor({ section: 'label', page: 'pairs', id: 'a b', other: 'c/d' }))).toMatchObject({ page: 'pairs', id: 'a b', other: 'c/d' });
    expect(parseHash('#/nowhere')).toMatchObject({ section: 'runs', page: 'datasets' });
  });

  it('round-trips every link it builds, ids with odd characters included', () => {
    const routes = [
      { page: 'dataset' as const, id: 'a b/c', tab: 'measure' as const },
      { page: 'dataset' as const, id: 'ds-1', tab: 'rows' as const },
      { page: 'dataset' as const, id: 'ds-2', tab: 'learn' as const },
      { page: 'run' as const, id: 'run-1' },
      { page: 'new-run' as const },
      { page: 'models' as const },
      { page: 'datasets' as const },
    ];
    for (const route of routes) expect(parseHash(hrefFor(route))).toMatchObject(route);
    expect(parseHash(hrefFor({ section: 'sync' }))).toMatchObject({ section: 'sync' });
  });

  it('parses and builds the compare address: #/compare/BASELINE/CANDIDATE', () => {
    expect(parseHash('#/compare')).toMatchObject({ section: 'compare', id: null, other: null });
    expect(parseHash('#/compare/run-a/run-b')).toMatchObject({ section: 'compare', id: 'run-a', other: 'run-b' });
    expect(parseHash(hrefFor({ section: 'compare', id: 'a/1', other: 'b 2' }))).toMatchObject({ section: 'compare', id: 'a/1', other: 'b 2' });
    expect(hrefFor({ section: 'compare' })).toBe('#/compare');
    expect(parseHash(hrefFor({ section: 'sync', id: 'ds-1' }))).toMatchObject({ section: 'sync', id: 'ds-1' });
    expect(hrefFor({ section: 'sync' })).toBe('#/sync');
  });
});
