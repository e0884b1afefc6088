// Bench: the rows page with 100k rows in Chromium against `while-desk serve`.
// Figures: first paint of the table (navigation to first rows visible; target < 1 s) and long tasks while
// scrolling for a few seconds (target: none over 50 ms). Needs `npm run build` and /usr/bin/chromium.
import { createWriteStream, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { checkPrerequisites, launchBrowser, runCli, sampleRow, startServe, tempDir } from '../e2e/harness.mjs';

const ROWS = Number(process.env.ROWS_BENCH_N || 100_000);
const SCROLL_MS = 5_000;

/** CPU seconds used so far by Chromium's renderer processes (Linux /proc), to tell slow code from a starved CPU. */
function rendererCpuSeconds() {
  let ticks = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer')) continue;
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // the process ended meanwhile
    }
  }
  return ticks / 100;
}

async function writeRows(file, n) {
  const out = createWriteStream(file);
  for (let i = 0; i < n; i++) {
    const row = sampleRow(i, { reward: (i * 7919) % 11 === 0 ? null : ((i * 104729) % 1000) / 1000, final_text: `Refund done for ${i}. `.repeat(1 + (i % 9)) });
    if (!out.write(JSON.stringify(row) + '\n')) await new Promise((resolve) => out.once('drain', resolve));
  }
  await new Promise((resolve) => out.end(resolve));
}

/** Runs in the page: records when the first data row appears, and every long task from the start. */
function pageProbe() {
  window.__bench = { firstRowsAt: null, longTasks: [] };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__bench.longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
  const check = () => {
    if (window.__bench.firstRowsAt === null && document.querySelector('.rows-line[data-ordinal]')) window.__bench.firstRowsAt = performance.now();
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true });
}

/** Runs in the page: scrolls for `ms`, mostly steady, sometimes a jump (as when dragging the scrollbar). */
function scrollFor(ms) {
  const scroller = document.querySelector('[data-testid=rows-scroller]');
  const max = scroller.scrollHeight - scroller.clientHeight;
  const start = performance.now();
  let frames = 0;
  let worstFrame = 0;
  let last = start;
  let blankFrames = 0;
  return new Promise((resolve) => {
    const step = (now) => {
      frames++;
      worstFrame = Math.max(worstFrame, now - last);
      last = now;
      if (document.querySelector('.rows-line.loading')) blankFrames++;
      // Fast wheel scrolling (about 24,000 px/s at 60 fps); every 2 s a jump somewhere else.
      if (frames % 120 === 0) scroller.scrollTop = Math.random() * max;
      else scroller.scrollTop = Math.min(max, scroller.scrollTop + 400);
      if (now - start < ms) requestAnimationFrame(step);
      else resolve({ frames, worstFrame, blankFrames, scrollStart: start });
    };
    requestAnimationFrame(step);
  });
}

async function main() {
  const missing = checkPrerequisites();
  if (missing.length) {
    console.log(`rows-page bench skipped: missing ${missing.join(', ')}`);
    return;
  }
  const dir = tempDir('while-desk-bench-');
  const db = path.join(dir, 'bench.db');
  const file = path.join(dir, 'rows.jsonl');
  let serve;
  let browser;
  try {
    await writeRows(file, ROWS);
    const imported = await runCli(['import', file, '--db', db, '--dataset', 'bench-100k', '--json']);
    if (imported.code !== 0) throw new Error(`import failed: ${imported.err || imported.out}`);
    const datasetId = JSON.parse(imported.out.trim().split('\n').pop()).dataset_id;

    serve = startServe(db);
    const url = await serve.url;
    browser = await launchBrowser();
    const page = await browser.context.newPage();
    await page.addInitScript(pageProbe);

    // Warm-up visit (caches the bundle as a returning user would have it), then the measured one.
    await page.goto(`${url}#/datasets/${datasetId}`);
    await page.waitForFunction(() => window.__bench.firstRowsAt !== null, null, { timeout: 30_000 });
    await page.goto('about:blank');
    await page.goto(`${url}#/datasets/${datasetId}`);
    await page.waitForFunction(() => window.__bench.firstRowsAt !== null, null, { timeout: 30_000 });
    const firstPaint = await page.evaluate(() => window.__bench.firstRowsAt);
    const total = await page.locator('.rows-foot').innerText();

    const cdp = await browser.context.newCDPSession(page);
    await cdp.send('Performance.enable');
    const metrics = async () => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
    const before = await metrics();
    const cpuBefore = rendererCpuSeconds();
    const scroll = await page.evaluate(scrollFor, SCROLL_MS);
    const after = await metrics();
    const cpuMs = ((rendererCpuSeconds() - cpuBefore) * 1000).toFixed(0);
    const spent = (name) => ((after[name] - before[name]) * 1000).toFixed(0);
    const duringScroll = await page.evaluate((from) => window.__bench.longTasks.filter((t) => t.start >= from), scroll.scrollStart);
    const atLoad = await page.evaluate((from) => window.__bench.longTasks.filter((t) => t.start < from), scroll.scrollStart);

    const sortStart = Date.now();
    await page.getByRole('button', { name: /^Reward/ }).click();
    await page.waitForFunction(() => document.querySelector('[aria-sort=descending]') && document.querySelector('.rows-line[data-ordinal] .c-reward')?.textContent === '0.999');
    const sortMs = Date.now() - sortStart;

    const worst = (list) => (list.length ? Math.max(...list.map((t) => t.duration)).toFixed(0) : '0');
    console.log(`rows page, ${total.split(' ·')[0]} (target: first rows < 1000 ms, no long task > 50 ms while scrolling)`);
    console.log(`  machine: ${cpus().length} cores, load average ${loadavg()[0].toFixed(1)} (long tasks grow with the load; compare on an idle machine)`);
    console.log(`  first rows visible after navigation: ${firstPaint.toFixed(0)} ms ${firstPaint < 1000 ? '(ok)' : '(OVER TARGET)'}`);
    console.log(`  long tasks during load: ${atLoad.length} (worst ${worst(atLoad)} ms)`);
    console.log(`  scrolling ${SCROLL_MS} ms: ${scroll.frames} frames, worst frame ${scroll.worstFrame.toFixed(0)} ms, frames with rows still loading ${scroll.blankFrames}`);
    console.log(`  main thread while scrolling: tasks ${spent('TaskDuration')} ms, script ${spent('ScriptDuration')} ms, layout ${spent('LayoutDuration')} ms, style ${spent('RecalcStyleDuration')} ms; renderer CPU time ${cpuMs} ms`);
    console.log(`  long tasks while scrolling: ${duringScroll.length} (worst ${worst(duringScroll)} ms) ${duringScroll.length === 0 ? '(ok)' : '(OVER TARGET)'}`);
    console.log(`  sort 100k rows by reward, click to first sorted rows: ${sortMs} ms`);
  } finally {
    await browser?.close();
    await serve?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
