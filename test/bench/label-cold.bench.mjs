// Bench: the labeling desk's first row on a cold engine, the acceptance check's worst honest case (issue 10:
// "a 100k-row dataset: the queue shows its first row within 1 s of opening the address"). A dataset is imported
// by the CLI and never labeled (its row keys not filled yet); each run starts a fresh `while-desk serve` and a
// fresh browser profile (no HTTP cache), opens #/label/<id> and waits for the row element with data-row-key and
// its prompt. Prints the whole timeline of each run: serve start, the page's own load, every API call the page
// made (sent -> answered, in the page's clock), the first row, the trust panel's first numbers; then a warm visit
// on the last serve, where the annotator's first key press is timed (key -> label stored) a few seconds in. Each
// run opens its own copy of the database as the import left it (opening the queue fills the row keys, a moment
// after the first page, so a run on the same file would find them filled). Needs `npm run build` and
// /usr/bin/chromium. ROWS_BENCH_N, COLD_RUNS change the sizes; COLD_PROFILE_DIR=DIR loads DIR/prof-preload.mjs
// into each serve (e.g. an inspector profiler writing there) and writes the page's CPU profile of each cold visit
// there (page-N.cpuprofile).
import { copyFileSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { checkPrerequisites, importDataset, launchBrowser, runCli, startServe, tempDir } from '../e2e/harness.mjs';
import { writeRealisticRows, writeSdkRows } from './generate-rows.mjs';

const ROWS = Number(process.env.ROWS_BENCH_N || 100_000);
const RUNS = Number(process.env.COLD_RUNS || 5);
/** The rows: the small bench rows (0.5 KB) and rows as real runs write them (1.7 KB, realisticRow); ROWS_KIND picks one. */
const KINDS = (process.env.ROWS_KIND || 'small,realistic').split(',');
const PROFILE_DIR = process.env.COLD_PROFILE_DIR;
/** COLD_LABELS=N imports N labels by another annotator first (as label.bench.mjs does), so the keys are filled. */
const LABELS = Number(process.env.COLD_LABELS || 0);
/** How long the annotator reads the first row before the first key press (last run). */
const KEY_AFTER_MS = Number(process.env.COLD_KEY_AFTER_MS || 3000);

/** In the page before its scripts: the annotator's name, long tasks, the first row, and every API call's times. */
function probe() {
  localStorage.setItem('while-desk.annotator', 'bench');
  const b = (window.__bench = { firstRowAt: null, trustAt: null, longTasks: [], calls: new Map(), log: [] });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) b.longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
  const check = () => {
    if (b.firstRowAt === null && document.querySelector('[data-testid=label-row][data-row-key] [data-testid=label-prompt]')) b.firstRowAt = performance.now();
    if (b.trustAt === null && document.querySelector('[data-testid=trust-panel]')?.getAttribute('data-trust-for')) b.trustAt = performance.now();
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true, attributes: true });
  const NativeSocket = window.WebSocket;
  window.WebSocket = class extends NativeSocket {
    constructor(...args) {
      super(...args);
      b.log.push({ what: 'socket created', at: performance.now() });
      this.addEventListener('open', () => b.log.push({ what: 'socket open', at: performance.now() }));
      this.addEventListener('message', (event) => {
        try {
          const message = JSON.parse(String(event.data));
          const call = b.calls.get(message.id);
          if (call && call.answered === undefined) {
            call.answered = performance.now();
            call.bytes = String(event.data).length;
          }
        } catch {
          // not ours
        }
      });
    }
    send(text) {
      try {
        const message = JSON.parse(text);
        if (message.method) b.calls.set(message.id, { method: message.method, limit: message.params?.limit ?? message.input?.limit, sent: performance.now() });
      } catch {
        // not ours
      }
      return super.send(text);
    }
  };
}

/** The annotator's first key after the row has been read for `afterMs`: key -> labels.append answered. */
async function firstKeyPress(page, afterMs) {
  await page.waitForTimeout(afterMs);
  const t = await page.evaluate(() => performance.now());
  await page.keyboard.press('1');
  await page.waitForFunction((since) => [...window.__bench.calls.values()].some((c) => c.method === 'labels.append' && c.sent >= since && c.answered !== undefined), t, { timeout: 30_000 });
  return page.evaluate((since) => {
    const call = [...window.__bench.calls.values()].find((c) => c.method === 'labels.append' && c.sent >= since);
    return { keyToStored: call.answered - since };
  }, t);
}

async function oneVisit(context, url, id, profileTo, keyAfterMs) {
  const page = await context.newPage();
  await page.addInitScript(probe);
  const cdp = profileTo ? await context.newCDPSession(page) : null;
  if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    await cdp.send('Profiler.start');
  }
  await page.goto(`${url}#/label/${id}`);
  await page.waitForFunction(() => window.__bench.firstRowAt !== null, null, { timeout: 60_000 });
  if (cdp) writeFileSync(profileTo, JSON.stringify((await cdp.send('Profiler.stop')).profile));
  await page.waitForFunction(() => window.__bench.trustAt !== null, null, { timeout: 60_000 }).catch(() => undefined);
  const firstKey = keyAfterMs === undefined ? null : await firstKeyPress(page, keyAfterMs);
  const out = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0];
    const scripts = performance.getEntriesByType('resource').filter((r) => r.name.endsWith('.js') || r.name.endsWith('.css'));
    return {
      firstRowAt: window.__bench.firstRowAt,
      trustAt: window.__bench.trustAt,
      html: nav ? nav.responseEnd : null,
      domContentLoaded: nav ? nav.domContentLoadedEventEnd : null,
      assets: scripts.map((r) => ({ name: r.name.split('/').pop(), start: r.startTime, end: r.responseEnd, bytes: r.encodedBodySize })),
      log: window.__bench.log,
      calls: [...window.__bench.calls.values()],
      longTasks: window.__bench.longTasks,
      paint: performance.getEntriesByType('paint').map((p) => ({ name: p.name, at: p.startTime })),
    };
  });
  await page.close();
  return { ...out, firstKey };
}

function printVisit(name, v) {
  const ms = (x) => (x === null || x === undefined ? '—' : `${x.toFixed(0)} ms`);
  console.log(`  ${name}: first row at ${ms(v.firstRowAt)}, trust panel at ${ms(v.trustAt)} (from navigation start)`);
  console.log(`    html ${ms(v.html)}; ${v.assets.map((a) => `${a.name} ${ms(a.start)}->${ms(a.end)}`).join('; ')}; DOMContentLoaded ${ms(v.domContentLoaded)}`);
  console.log(`    ${v.paint.map((p) => `${p.name} ${ms(p.at)}`).join('; ')}; ${v.log.map((l) => `${l.what} ${ms(l.at)}`).join('; ')}`);
  for (const c of v.calls.filter((c) => c.sent < (v.trustAt ?? v.firstRowAt) + 50)) {
    console.log(`    ${c.method}${c.limit !== undefined ? `(limit ${c.limit})` : ''}: ${ms(c.sent)} -> ${ms(c.answered)} (${c.answered ? (c.answered - c.sent).toFixed(0) : '—'} ms, ${c.bytes ?? 0} B)`);
  }
  const before = v.longTasks.filter((t) => t.start < v.firstRowAt);
  console.log(`    long tasks before the first row: ${before.map((t) => `${t.start.toFixed(0)}+${t.duration.toFixed(0)}`).join(', ') || 'none'}`);
  if (v.firstKey) console.log(`    first key press (${KEY_AFTER_MS} ms after the trust panel): label stored ${ms(v.firstKey.keyToStored)} after the key`);
}

async function main() {
  const missing = checkPrerequisites();
  if (missing.length) {
    console.log(`label cold bench skipped: missing ${missing.join(', ')}`);
    return;
  }
  for (const kind of KINDS) await benchKind(kind);
}

async function benchKind(kind) {
  const dir = tempDir('while-desk-label-cold-');
  const db = path.join(dir, 'bench.db');
  try {
    const file = path.join(dir, 'rows.jsonl');
    if (kind === 'realistic') await writeRealisticRows(file, ROWS / 4, 4);
    else await writeSdkRows(file, ROWS);
    const id = await importDataset(file, db);
    if (LABELS > 0) {
      const labels = Array.from({ length: LABELS }, (_, i) => {
        const n = ROWS - 1 - i * 97;
        return JSON.stringify({ key: `task${kind === 'realistic' ? '_' : '-'}${Math.floor(n / 4)}#${n % 4}`, label: i % 6 ? 1 : 0, annotator: 'seed' });
      });
      writeFileSync(path.join(dir, 'labels.jsonl'), labels.join('\n') + '\n');
      const attached = await runCli(['labels', 'import', path.join(dir, 'labels.jsonl'), '--dataset', id, '--db', db, '--json']);
      if (attached.code !== 0) throw new Error(`labels import failed: ${attached.err}`);
    }
    console.log(`label cold bench, ${kind} rows: ${ROWS} rows imported, ${LABELS ? `${LABELS} labels imported` : 'never labeled'}; ${cpus().length} cores, load ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
    const pristine = path.join(dir, 'pristine.db');
    if (existsSync(`${db}-wal`)) throw new Error('the import left a WAL file: the bench copies one database file per run');
    copyFileSync(db, pristine);
    const firsts = [];
    for (let run = 0; run < RUNS; run++) {
      for (const file of [`${db}-wal`, `${db}-shm`]) rmSync(file, { force: true }); // the last serve's, if it left them
      copyFileSync(pristine, db);
      const saved = process.env.NODE_OPTIONS;
      if (PROFILE_DIR) process.env.NODE_OPTIONS = `${saved ?? ''} --import=${path.resolve(PROFILE_DIR, 'prof-preload.mjs')}`.trim();
      const t0 = performance.now();
      const serve = startServe(db);
      if (PROFILE_DIR) process.env.NODE_OPTIONS = saved ?? '';
      const browser = await launchBrowser();
      try {
        const url = await serve.url;
        const serveMs = performance.now() - t0;
        const cold = await oneVisit(browser.context, url, id, PROFILE_DIR && path.join(PROFILE_DIR, `page-${run + 1}.cpuprofile`));
        firsts.push(cold.firstRowAt);
        console.log(`run ${run + 1}: serve printed its URL after ${serveMs.toFixed(0)} ms (load ${loadavg()[0].toFixed(1)})`);
        printVisit('cold engine, first visit', cold);
        if (run === RUNS - 1) printVisit('same serve, second visit', await oneVisit(browser.context, url, id, undefined, KEY_AFTER_MS));
      } finally {
        await browser.close();
        await serve.stop();
      }
    }
    const sorted = [...firsts].sort((a, b) => a - b);
    console.log(`cold first row, ${kind} rows: best ${sorted[0].toFixed(0)} ms, median ${sorted[Math.floor(sorted.length / 2)].toFixed(0)} ms, worst ${sorted[sorted.length - 1].toFixed(0)} ms (target < 1000)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
