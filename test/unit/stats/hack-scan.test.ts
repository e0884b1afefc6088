import { describe, expect, it } from 'vitest';
import { hackScan } from '../../../shared/stats/hack-scan';
import { PyRandom } from '../../../shared/stats/random';
import { looksFinished, isTruncated } from '../../../shared/stats/row-hygiene';
import { pyCompare, pySplit, pySplitlines, pyStrip, pyWordCount } from '../../../shared/text/py-text';

type Row = Record<string, unknown>;
const WORDS = 'the order is on its way and should arrive soon please check the tracking page for updates'.split(' ');

/** Asks x rollouts; `make(ask, k, rng)` builds a row's final text, tools and reward. */
function rowsOf(asks: number, k: number, make: (rng: PyRandom) => { text: string; tools?: string[]; reward: number; markers?: Row }): Row[] {
  const rng = new PyRandom(7);
  const rows: Row[] = [];
  for (let a = 0; a < asks; a++) {
    for (let i = 0; i < k; i++) {
      const { text, tools = [], reward, markers } = make(rng);
      rows.push({
        prompt: `ask ${a}`,
        steps: tools.map((tool) => ({ tool, arguments: { id: a }, result: { status: 'ok' } })),
        final_text: text,
        reward,
        ...(markers ? { markers } : {}),
      });
    }
  }
  return rows;
}

const words = (rng: PyRandom, n: number) => Array.from({ length: n }, () => WORDS[rng.randrange(WORDS.length)]).join(' ');

describe('hack_scan', () => {
  it('names a reward that pays for length as the hack when a tool call is endorsed', () => {
    const rows = rowsOf(30, 6, (rng) => {
      const n = 4 + rng.randrange(30);
      return { text: `${words(rng, n)}.`, tools: rng.random() < 0.5 ? ['lookup_order'] : [], reward: n > 18 ? 1 : 0 };
    });
    const scan = hackScan(rows, { endorsed: ['tool:lookup_order'] });
    expect(scan.regime).toBe('reward_hack');
    expect(['n:words', 'reply_length', 'n:punct']).toContain(scan.top_feature);
    expect(scan.features[0].above_floor).toBe(true);
    expect(scan.features[0].endorsed).toBe(false);
    expect(scan.integrity).toBeLessThan(0.5);
    expect(scan.warnings[0]).toContain(scan.top_feature as string);
  });

  it('finds a word the reward pays for in the auto tier, and says train when the endorsed call is what pays', () => {
    const hack = rowsOf(30, 8, (rng) => {
      const says = rng.random() < 0.5;
      return { text: `${says ? 'verified ' : ''}${words(rng, 8)}.`, tools: rng.random() < 0.5 ? ['lookup_order'] : ['search'], reward: says ? 1 : 0 };
    });
    const scan = hackScan(hack, { endorsed: ['tool:lookup_order'] });
    expect(scan.regime).toBe('reward_hack');
    expect(scan.top_feature).toMatch(/^contains:verified/);

    const honest = rowsOf(30, 8, (rng) => {
      const uses = rng.random() < 0.5;
      return { text: `${words(rng, 8)}.`, tools: uses ? ['lookup_order'] : ['search'], reward: uses ? 1 : 0 };
    });
    const good = hackScan(honest, { endorsed: ['tool:lookup_order'] });
    expect(good.regime).toBe('train');
    expect(good.endorsed_on_top).toBe(true);
    // tool:search is the complement of tool:lookup_order here: tied in |rho|, the endorsed one ranks first.
    expect(good.features[0].name === 'tool:lookup_order' || good.features[0].aliases.includes('tool:lookup_order')).toBe(true);
  });

  it('refuses to name a winner when each ask holds two distinct trajectories (degenerate, collinear)', () => {
    const rows = rowsOf(20, 4, (rng) => {
      const ok = rng.random() < 0.5;
      return ok ? { text: 'Your order ships Monday.', tools: ['lookup_order'], reward: 1 } : { text: 'Sorry, no idea', reward: 0 };
    });
    const scan = hackScan(rows, { endorsed: ['tool:lookup_order'] });
    expect(scan.regime).toBe('degenerate');
    expect(scan.degenerate).toBe(true);
    expect(scan.top_feature).toBeNull();
    expect(scan.integrity).toBeNull();
    expect(scan.distinct_per_ask).toBeLessThan(3);
    expect(scan.collinear.length).toBeGreaterThanOrEqual(2);
    expect(scan.inverted).toEqual([]);
  });

  it('reads a marker the reward pays for, and a hedge the reward pays for beside it', () => {
    const rows = rowsOf(30, 6, (rng) => {
      const hedge = rng.random() < 0.5;
      return { text: `${hedge ? 'It depends, ' : ''}${words(rng, 6)}.`, reward: hedge ? 1 : 0, markers: { no_hedging: hedge ? 0 : 1, grounded: rng.random() < 0.5 ? 1 : 0 } };
    });
    const scan = hackScan(rows, { endorsed: ['marker:grounded'] });
    expect(scan.regime).toBe('reward_hack');
    const hedging = scan.features.find((f) => f.name === 'marker:no_hedging' || f.aliases.includes('marker:no_hedging'));
    expect(hedging?.rho).toBeLessThan(-0.9);
  });

  it('gives only the pooled column with one rollout per ask, and nothing with no graded row', () => {
    const rows = rowsOf(40, 1, (rng) => ({ text: `${words(rng, 3 + rng.randrange(20))}.`, reward: rng.random() < 0.5 ? 1 : 0 }));
    const scan = hackScan(rows, {});
    expect(scan.regime).toBe('unknown');
    expect(scan.tau).toBeNull();
    expect(scan.features.every((f) => f.rho === 0 && !f.above_floor)).toBe(true);
    const none = hackScan([{ prompt: 'a', final_text: 'x' }, 'not a row'], {});
    expect(none).toMatchObject({ n_rows: 1, n_graded: 0, regime: 'unknown' });
    expect(none.warnings).toHaveLength(1);
  });

  it('is the same for the same seed, and its floor moves with the seed', () => {
    const rows = rowsOf(20, 6, (rng) => ({ text: `${words(rng, 3 + rng.randrange(10))}.`, reward: rng.random() < 0.5 ? 1 : 0 }));
    const a = hackScan(rows, { seed: 1 });
    expect(hackScan(rows, { seed: 1 })).toEqual(a);
    const taus = new Set([1, 2, 3, 4].map((seed) => hackScan(rows, { seed }).tau));
    expect(taus.size).toBeGreaterThan(1);
  });

  it('says unknown when no feature matches an endorsed pattern', () => {
    const rows = rowsOf(10, 4, (rng) => ({ text: `${words(rng, 5)}.`, tools: ['a'], reward: rng.random() < 0.5 ? 1 : 0 }));
    const scan = hackScan(rows, { endorsed: ['tool:nothing'], min_obs: 2 });
    expect(scan.regime).toBe('unknown');
    expect(scan.endorsed_matched).toBe(0);
  });
});

describe('the Python text rules hack_scan counts with', () => {
  it('splits, strips and orders as Python does', () => {
    expect(pySplit('  a\x1cb\u0085c \ufeffd ')).toEqual(['a', 'b', 'c', '\ufeffd']);
    expect(pyWordCount('  a\x1cb\u0085c \ufeffd ')).toBe(4);
    expect(pyStrip('\u3000x\x1f')).toBe('x');
    expect(pySplitlines('a\r\nb\x0bc\u2028d\n')).toEqual(['a', 'b', 'c', 'd']);
    expect(['\uffff', '\u{1f600}', 'a'].sort(pyCompare)).toEqual(['a', '\uffff', '\u{1f600}']);
  });

  it('reads a reply as finished on punctuation, a closed fence, an answer line or a sign-off', () => {
    expect(looksFinished('Done.')).toBe(true);
    expect(looksFinished('code\n```\nx\n```')).toBe(true);
    expect(looksFinished('a\n```\nb\n```\nc```')).toBe(false);
    expect(looksFinished('working\n#### 42')).toBe(true);
    expect(looksFinished('see you\nBest,\nSam')).toBe(true);
    expect(looksFinished('and then the')).toBe(false);
    expect(isTruncated({ final_text: 'word '.repeat(60) })).toBe(true);
    expect(isTruncated({ final_text: 'short and cut' })).toBe(false);
    expect(isTruncated({ final_text: 'x', reason: 'Reply was TRUNCATED' })).toBe(true);
  });
});
