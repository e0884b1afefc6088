// style_markers' phrase lists are matched as literal text (style.ts compiles each list into one pattern for speed):
// regex metacharacters in a caller's phrase mean themselves, and an empty list never fires.
import { describe, expect, it } from 'vitest';
import { styleMarkers, styleValues, phraseTable } from '../../../../shared/stats/markers/style';

describe('style phrase lists', () => {
  it('matches a phrase with regex metacharacters literally, case-blind on the text', () => {
    const rows: Array<Record<string, unknown>> = [{ final_text: 'Price: $5 (approx.) [sic] a+b? C:\\path/x|y' }, { final_text: 'price 5 approx sic ab' }];
    styleMarkers(rows, { phrases: { money: ['$5 (approx.)'], marks: ['[sic] a+b?'], path: ['c:\\path/x|y'], none: [] } });
    expect(rows.map((r) => r.markers)).toEqual([
      { no_boilerplate: 1, no_hedging: 1, no_apology: 1, no_sycophancy: 1, answered: 1, money: 0, marks: 0, path: 0, none: 1 },
      { no_boilerplate: 1, no_hedging: 1, no_apology: 1, no_sycophancy: 1, answered: 1, money: 1, marks: 1, path: 1, none: 1 },
    ]);
  });

  it('zeroes the stock families on their phrases, and a replaced list is the only one read', () => {
    expect(styleValues("great question! i'm not sure, sorry for the wait", phraseTable())).toMatchObject({ no_boilerplate: 0, no_hedging: 0, no_apology: 0, answered: 1 });
    expect(styleValues('great question!', phraseTable({ no_boilerplate: ['.*'] }))).toMatchObject({ no_boilerplate: 1 });
  });
});
