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
  window.__bench = { firstRowsAt: null, longTasks: [], frames: [] };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__bench.longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
  // Long animation frames name the scripts that ran in them: what a long task was spent on.
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const scripts = entry.scripts.map((script) => `${script.invoker || script.invokerType} ${Math.round(script.duration)} ms${script.sourceFunctionName ? ' in ' + script.sourceFunctionName : ''}`);
      window.__bench.frames.push({ start: entry.startTime, duration: entry.duration, blocking: entry.blockingDuration, render: entry.renderStart ? entry.startTime + entry.duration - entry.renderStart : 0, scripts });
    }
  }).observe({ type: 'long-animation-frame', buffered: true });
  const check = () => {
    if (window.__bench.firstRowsAt === null && document.querySelector('.rows-line[data-ordinal]')) window.__bench.firstRowsAt = performance.now();
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true });
}

/** Runs in the page: counts frames (and frames still showing unloaded rows) until `window.__stopFrames()`. */
function watchFrames() {
  const stats = { frames: 0, worstFrame: 0, blankFrames: 0, start: performance.now() };
  let last = stats.start;
  let running = true;
  const step = (now) => {
    stats.frames++;
    stats.worstFrame = Math.max(stats.worstFrame, now - last);
    last = now;
    if (document.querySelector('.rows-line.loading')) stats.blankFrames++;
    if (running) requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
  window.__stopFrames = () => {
    running = false;
    return { ...stats, end: performance.now() };
  };
}

/** Scrolls the table with the mouse wheel, as a person does (fast), and every 2 s drags the thumb elsewhere. */
async function scrollFor(page, ms) {
  const box = await page.getByTestId('rows-scroller').boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.evaluate(watchFrames);
  const start = Date.now();
  let nextJump = start + 2000;
  let wheels = 0;
  while (Date.now() - start < ms) {
    if (Date.now() >= nextJump) {
      nextJump += 2000;
      await page.evaluate(() => {
        const scroller = document.querySelector('[data-testid=rows-scroller]');
        scroller.scrollTop = Math.random() * (scroller.scrollHeight - scroller.clientHeight);
      });
    }
    await page.mouse.wheel(0, 400);
    wheels++;
  }
  const stats = await page.evaluate(() => window.__stopFrames());
  return { ...stats, wheels, scrollStart: stats.start };
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
    const worst = (list) => (list.length ? Math.max(...list.map((t) => t.duration)).toFixed(0) : '0');
    const measureScroll = async (label) => {
      const before = await metrics();
      const cpuBefore = rendererCpuSeconds();
      const scroll = await scrollFor(page, SCROLL_MS);
      const after = await metrics();
      const cpuMs = ((rendererCpuSeconds() - cpuBefore) * 1000).toFixed(0);
      const spent = (name) => ((after[name] - before[name]) * 1000).toFixed(0);
      const plotly = await page.evaluate(([from, to]) => performance.getEntriesByType('resource').filter((e) => e.name.includes('plotly') && e.startTime >= from && e.startTime < to).length, [scroll.start, scroll.end]);
      const tasks = await page.evaluate(([from, to]) => window.__bench.longTasks.filter((t) => t.start >= from && t.start < to), [scroll.start, scroll.end]);
      const frames = await page.evaluate(([from, to]) => window.__bench.frames.filter((f) => f.start >= from && f.start < to && f.duration >= 50), [scroll.start, scroll.end]);
      return [
        `  scrolling ${label}, ${SCROLL_MS} ms: ${scroll.wheels} wheel steps of 400 px and 2 jumps, ${scroll.frames} frames, worst frame ${scroll.worstFrame.toFixed(0)} ms, frames with rows still loading ${scroll.blankFrames}`,
        `    main thread: tasks ${spent('TaskDuration')} ms, script ${spent('ScriptDuration')} ms, layout ${spent('LayoutDuration')} ms, style ${spent('RecalcStyleDuration')} ms; renderer CPU time ${cpuMs} ms`,
        `    long tasks: ${tasks.length} (worst ${worst(tasks)} ms${tasks.length ? '; ' + tasks.map((t) => t.duration.toFixed(0)).join(' ') : ''}) ${tasks.length === 0 ? '(ok)' : '(OVER TARGET)'}${plotly ? '; the Measure charts\' idle Plotly warm-up (pages/measure/plot.tsx) loaded meanwhile' : ''}`,
        ...frames.map((f) => `      long frame: ${f.duration.toFixed(0)} ms (blocking ${f.blocking.toFixed(0)}, rendering ${f.render.toFixed(0)}): ${f.scripts.join('; ') || 'no script'}`),
      ];
    };
    const atLoad = await page.evaluate(() => window.__bench.longTasks.slice());
    const framesAtLoad = await page.evaluate(() => window.__bench.frames.filter((f) => f.start < window.__bench.firstRowsAt && f.duration >= 50));
    // First right after the rows appear (what a person sees, other screens' idle work included), then settled.
    const justOpened = await measureScroll('just after opening');
    await page.waitForTimeout(8_000);
    const settled = await measureScroll('after 8 s settled');

    const sortStart = Date.now();
    await page.getByRole('button', { name: /^Reward/ }).click();
    await page.waitForFunction(() => document.querySelector('[aria-sort=descending]') && document.querySelector('.rows-line[data-ordinal] .c-reward')?.textContent === '0.999');
    const sortMs = Date.now() - sortStart;

    const jumpStart = Date.now();
    await page.evaluate(() => {
      const scroller = document.querySelector('[data-testid=rows-scroller]');
      scroller.scrollTop = scroller.scrollHeight / 2;
    });
    await page.waitForFunction(() => {
      const lines = document.querySelectorAll('.rows-line');
      return lines.length > 0 && !document.querySelector('.rows-line.loading');
    });
    const jumpMs = Date.now() - jumpStart;

    console.log(`rows page, ${total.split(' ·')[0]} (target: first rows < 1000 ms, no long task > 50 ms while scrolling)`);
    console.log(`  machine: ${cpus().length} cores, load average ${loadavg()[0].toFixed(1)} (long tasks grow with the load; compare on an idle machine)`);
    console.log(`  first rows visible after navigation: ${firstPaint.toFixed(0)} ms ${firstPaint < 1000 ? '(ok)' : '(OVER TARGET)'}`);
    console.log(`  long tasks up to first rows: ${atLoad.length} (worst ${worst(atLoad)} ms)`);
    for (const f of framesAtLoad) console.log(`      long frame: ${f.duration.toFixed(0)} ms (rendering ${f.render.toFixed(0)}): ${f.scripts.join('; ') || 'no script'}`);
    console.log([...justOpened, ...settled].join('\n'));
    console.log(`  sort 100k rows by reward, click to first sorted rows: ${sortMs} ms`);
    console.log(`  sorted by reward, jump to the middle, rows filled in: ${jumpMs} ms`);
  } finally {
    await browser?.close();
    await serve?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
