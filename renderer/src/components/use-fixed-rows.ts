// Which rows of a long list of rows of one height are in view, for a list that draws only those: a row's place is
// its index times the height, so nothing is measured (a virtualizer that measures each row built an entry for every
// one of 25,000 rows, 15-20 ms, before the compare screen's table could show).
import { useEffect, useState, type RefObject } from 'react';

export interface RowWindow {
  /** First and past-last index to draw (the rows in view and `overscan` more on each side). */
  start: number;
  end: number;
  /** The height of all the rows: the list's inner height, so its scroll bar is true. */
  total: number;
}

export function useFixedRows(scroller: RefObject<HTMLElement | null>, count: number, rowHeight: number, overscan = 10): RowWindow {
  const [view, setView] = useState({ top: 0, height: 0 });
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const read = () => setView((old) => (old.top === el.scrollTop && old.height === el.clientHeight ? old : { top: el.scrollTop, height: el.clientHeight }));
    read();
    el.addEventListener('scroll', read, { passive: true });
    const resized = new ResizeObserver(read);
    resized.observe(el);
    return () => {
      el.removeEventListener('scroll', read);
      resized.disconnect();
    };
  }, [scroller]);
  return rowWindow(view.top, view.height, count, rowHeight, overscan);
}

/** The rows to draw for a list scrolled to `top` and `height` tall. */
export function rowWindow(top: number, height: number, count: number, rowHeight: number, overscan: number): RowWindow {
  // Before the list is laid out its height reads 0: draw a screenful (say 20 rows) rather than nothing.
  const shownRows = Math.ceil((height || 20 * rowHeight) / rowHeight);
  const first = Math.floor(top / rowHeight);
  return { start: Math.min(count, Math.max(0, first - overscan)), end: Math.min(count, first + shownRows + overscan), total: count * rowHeight };
}
