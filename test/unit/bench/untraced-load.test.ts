// The compare bench's reading of a Chromium startup trace: the page's own main thread, from its navigation to the
// User Timing mark, and only its tasks over 50 ms.
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs bench module without type declarations
import { readLoad } from '../../bench/untraced-load.mjs';

const MARK = 'while-desk:compare-shown';
const at = (ms: number) => 1_000_000 + ms * 1000; // trace timestamps are microseconds
const task = (pid: number, ms: number, dur: number) => ({ name: 'ThreadControllerImpl::RunTask', ph: 'X', pid, tid: pid, ts: at(ms), dur: dur * 1000 });

describe('readLoad', () => {
  const events = [
    { name: 'navigationStart', ph: 'R', pid: 1, tid: 1, ts: at(0) }, // the launcher page, another renderer
    task(1, 10, 120),
    { name: 'navigationStart', ph: 'R', pid: 2, tid: 2, ts: at(2000) },
    task(2, 2100, 49), // under 50 ms
    task(2, 2300, 64),
    task(2, 2500, 20),
    task(3, 2400, 300), // another thread
    { name: MARK, ph: 'I', pid: 2, tid: 2, ts: at(2700) },
    task(2, 2800, 90), // after the mark
  ];

  it('times the mark from the marked page\'s navigation and lists that thread\'s long tasks before it', () => {
    expect(readLoad(events, MARK)).toEqual({ shownAt: 700, longTasks: [{ start: 300, duration: 64 }] });
  });

  it('is null when the page never set the mark', () => {
    expect(readLoad(events.filter((event) => event.name !== MARK), MARK)).toBeNull();
  });
});
