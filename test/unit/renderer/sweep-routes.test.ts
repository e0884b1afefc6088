// The compare section's sweep and agent pages: #/compare/sweeps, #/compare/sweeps/ID, #/compare/agents/NAME.
import { describe, expect, it } from 'vitest';
import { hrefFor, parseHash } from '../../../renderer/src/store/routes';

describe('sweep and agent routes', () => {
  it('parses the lists and the single pages, leaving #/compare/A/B for baselines', () => {
    expect(parseHash('#/compare/sweeps')).toMatchObject({ section: 'compare', page: 'sweeps', id: null });
    expect(parseHash('#/compare/sweeps/sweep-1a')).toMatchObject({ section: 'compare', page: 'sweep', id: 'sweep-1a' });
    expect(parseHash('#/compare/agents')).toMatchObject({ section: 'compare', page: 'agents', id: null });
    expect(parseHash('#/compare/agents/support%20bot')).toMatchObject({ section: 'compare', page: 'agent', id: 'support bot' });
    expect(parseHash('#/compare/run-a/run-b')).toMatchObject({ section: 'compare', page: 'none', id: 'run-a', other: 'run-b' });
  });

  it('round-trips the links it builds', () => {
    for (const route of [
      { section: 'compare' as const, page: 'sweeps' as const },
      { section: 'compare' as const, page: 'sweep' as const, id: 'sweep-9' },
      { section: 'compare' as const, page: 'agents' as const },
      { section: 'compare' as const, page: 'agent' as const, id: 'a/b c' },
    ]) {
      expect(parseHash(hrefFor(route))).toMatchObject(route);
    }
  });
});
