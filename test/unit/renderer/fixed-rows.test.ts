// The rows a list of rows of one height draws (renderer/src/components/use-fixed-rows.ts): those in view and a few
// on each side, never past either end; a screenful before the list has a height.
import { describe, expect, it } from 'vitest';
import { rowWindow } from '../../../renderer/src/components/use-fixed-rows';

describe('rowWindow', () => {
  it('draws the rows in view and the overscan on each side, within the list', () => {
    expect(rowWindow(0, 300, 25_000, 30, 10)).toEqual({ start: 0, end: 20, total: 750_000 });
    expect(rowWindow(3000, 300, 25_000, 30, 10)).toEqual({ start: 90, end: 120, total: 750_000 });
    expect(rowWindow(3015, 300, 25_000, 30, 10)).toEqual({ start: 90, end: 120, total: 750_000 }); // half a row scrolled
    expect(rowWindow(749_700, 300, 25_000, 30, 10)).toEqual({ start: 24_980, end: 25_000, total: 750_000 });
  });

  it('draws a screenful before the list is laid out, and nothing past a list that shrank', () => {
    expect(rowWindow(0, 0, 6, 30, 10)).toEqual({ start: 0, end: 6, total: 180 });
    expect(rowWindow(0, 0, 1000, 30, 0)).toEqual({ start: 0, end: 20, total: 30_000 });
    expect(rowWindow(9000, 300, 5, 30, 10)).toEqual({ start: 5, end: 5, total: 150 });
  });
});
