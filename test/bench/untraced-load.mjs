// A page load with no debugger attached, timed by Chromium's own startup trace: what a person's browser does.
// Playwright drives Chromium over the DevTools protocol, and with its Runtime domain on, every `Error()` a script
// builds captures a detailed stack, for which V8 reparses each function on that stack. React DOM builds five such
// errors (its sentinels) while its module is evaluated, so under Playwright that evaluation reparses the 200 KB
// module: a task of 60-85 ms here, against some 6 ms with no debugger (both read from Chromium traces). A figure
// about long tasks is therefore read both ways: under Playwright (compare-screen.bench.mjs's probe) and here.
//
// How: a tiny launcher page on 127.0.0.1 sends the browser on to `url` after `settleMs` (so Chromium's own start
// is over), Chromium writes a trace of the first seconds (categories `toplevel`, `blink.user_timing`, `loading`,
// cheap enough not to change the figure), and the page's User Timing mark `mark` says when it was done. Bounded:
// the browser is killed after `limitMs` whatever happens.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { CHROMIUM, tempDir } from '../e2e/harness.mjs';

const LONG_TASK_MS = 50;

function launcher(target, settleMs) {
  const server = http.createServer((_request, response) => {
    response.setHeader('content-type', 'text/html; charset=utf-8');
    response.end(`<!doctype html><title>launcher</title><script>setTimeout(() => location.replace(${JSON.stringify(target)}), ${settleMs})</script>`);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function waitForTrace(file, limitMs) {
  const until = Date.now() + limitMs;
  while (Date.now() < until) {
    // Chromium writes the file once the trace's time is up; it is complete when its closing bracket is there.
    if (existsSync(file)) {
      const text = readFileSync(file, 'utf8');
      if (text.trimEnd().endsWith('}')) return JSON.parse(text).traceEvents;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`Chromium wrote no complete trace within ${limitMs} ms`);
}

/**
 * From the trace: when `mark` was set (ms from the page's navigation start) and the tasks of that page's main
 * thread over 50 ms that started before it, as { start, duration } in ms from navigation start.
 */
export function readLoad(events, mark) {
  const marked = events.find((event) => event.name === mark);
  if (!marked) return null;
  const thread = (event) => `${event.pid}:${event.tid}`;
  const main = thread(marked);
  const navigation = events.filter((event) => event.name === 'navigationStart' && thread(event) === main && event.ts <= marked.ts).pop();
  if (!navigation) return null;
  const longTasks = events
    .filter((event) => thread(event) === main && event.ph === 'X' && event.name === 'ThreadControllerImpl::RunTask')
    .filter((event) => event.ts >= navigation.ts && event.ts < marked.ts && event.dur > LONG_TASK_MS * 1000)
    .map((event) => ({ start: (event.ts - navigation.ts) / 1000, duration: event.dur / 1000 }));
  return { shownAt: (marked.ts - navigation.ts) / 1000, longTasks };
}

/** Loads `url` in a fresh Chromium profile with no debugger attached; resolves with readLoad's result (null: no mark). */
export async function untracedLoad(url, mark, { settleMs = 2000, traceSeconds = 6, limitMs = 40_000 } = {}) {
  const dir = tempDir('while-desk-untraced-');
  const traceFile = path.join(dir, 'trace.json');
  const server = await launcher(url, settleMs);
  const browser = spawn(
    CHROMIUM,
    [
      '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', `--user-data-dir=${path.join(dir, 'profile')}`, '--window-size=1400,900',
      '--trace-startup=toplevel,blink.user_timing,loading', '--trace-startup-format=json', `--trace-startup-file=${traceFile}`,
      `--trace-startup-duration=${traceSeconds}`, `http://127.0.0.1:${server.address().port}/`,
    ],
    { stdio: 'ignore', detached: true },
  );
  try {
    return readLoad(await waitForTrace(traceFile, limitMs), mark);
  } finally {
    try {
      process.kill(-browser.pid, 'SIGKILL'); // the browser and every process it started
    } catch {
      // already gone
    }
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
