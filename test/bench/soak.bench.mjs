// Soak (issue 9 item 4): CLIENTS WebSocket clients page through rows and ask for pass@k for SECONDS against
// `while-desk serve`, while seeded runs with a judge write over the same WebSocket, one after another.
// Passes when no call failed and every run ends with exactly its expected rows, each (task, rollout) once.
// Prints the p50/p95/p99 latency of a rows page. Not a timed test; the suite runs a short one (serve-soak.test.ts).
// Run: npm run build && node test/bench/soak.bench.mjs [CLIENTS=32] [SECONDS=60]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import WebSocket from 'ws';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A minimal RPC client over `ws` (the protocol of shared/api/rpc.ts); rejects with the server's error shape. */
export function connect(url) {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    const pending = new Map();
    const listeners = new Map();
    let nextId = 1;
    socket.on('message', (data) => {
      const message = JSON.parse(String(data));
      if (message.kind === 'event') listeners.get(message.event)?.forEach((listener) => listener(message.payload));
      const waiter = message.kind === 'result' && pending.get(message.id);
      if (!waiter) return;
      pending.delete(message.id);
      if (message.ok) waiter.resolve(message.result);
      else waiter.reject(Object.assign(new Error(`${message.error.code}: ${message.error.message}`), message.error));
    });
    socket.on('close', () => {
      for (const waiter of pending.values()) waiter.reject(new Error('the connection closed'));
      pending.clear();
    });
    socket.once('error', reject);
    socket.once('open', () =>
      resolve({
        call(method, input) {
          const id = nextId++;
          return new Promise((ok, fail) => {
            pending.set(id, { resolve: ok, reject: fail });
            socket.send(JSON.stringify({ kind: 'call', id, method, input }));
          });
        },
        on(event, listener) {
          if (!listeners.has(event)) listeners.set(event, new Set());
          listeners.get(event).add(listener);
        },
        close: () => socket.close(),
      }),
    );
  });
}

export function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function taskText(tasks) {
  const base = fs.readFileSync(path.join(root, 'test/fixtures/tasks/support.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
  return Array.from({ length: tasks }, (_, i) => JSON.stringify({ ...base[i % base.length], scenario_id: `soak-${i}` })).join('\n') + '\n';
}

/** Every row of a dataset, page by page: the (task, rollout) pairs it holds, and how many came back twice. */
async function allPairs(client, id) {
  const seen = new Set();
  let duplicates = 0;
  for (let offset = 0; ; offset += 5000) {
    const page = await client.call('datasets.rows', { id, offset, limit: 5000 });
    for (const row of page.rows) {
      const key = `${row.scenario_id}#${row.rollout_index}`;
      if (seen.has(key)) duplicates++;
      seen.add(key);
    }
    if (page.rows.length < 5000) return { pairs: seen.size, duplicates, total: page.total };
  }
}

/**
 * The soak itself against a running `serve` (its URL with the token). Runs start one after another until the
 * time is up, so rows are being written the whole time; readers read the run being written and finished ones.
 */
export async function soak({ url, clients = 32, seconds = 60, tasks = 40, k = 100, statEvery = 8, withJudge = true, log = () => undefined }) {
  const apiUrl = url.replace(/^http/, 'ws').replace(/\/\?token=/, '/api?token=');
  const writer = await connect(apiUrl);
  const readers = await Promise.all(Array.from({ length: clients }, () => connect(apiUrl)));
  const judge = path.join(root, 'test/fixtures/tasks/reference-judge.mjs');
  const text = taskText(tasks);
  const runs = [];
  const errors = [];
  const pageMs = [];
  const statMs = [];
  const deadline = Date.now() + seconds * 1000;
  let current = null;

  const finished = new Map();
  writer.on('run.progress', (progress) => {
    if (progress.status !== 'running') finished.get(progress.run_id)?.(progress);
  });
  // The final run.progress ends the wait; a poll covers an event that raced ahead of the registration.
  function waitForEnd(runId) {
    return new Promise((resolve) => {
      const finish = (result) => {
        clearInterval(poll);
        finished.delete(runId);
        resolve(result);
      };
      const poll = setInterval(async () => {
        const detail = await writer.call('runs.get', { id: runId }).catch(() => null);
        if (detail && detail.status !== 'running') finish(detail);
      }, 1_000);
      finished.set(runId, finish);
    });
  }
  async function startRun() {
    const started = await writer.call('runs.start', { tasks_text: text, agent: { kind: 'seeded', misbehave_rate: 0 }, judge: withJudge ? { kind: 'module', path: judge } : null, k, concurrency: 16, name: `soak ${runs.length}` });
    const done = waitForEnd(started.run_id);
    const run = { id: started.run_id, expected: started.expected_rows, done };
    runs.push(run);
    current = run;
    return run;
  }
  async function writeLoop() {
    while (Date.now() < deadline) {
      const run = await startRun();
      const progress = await run.done;
      run.status = progress.status;
      if (progress.status !== 'done') errors.push(`run ${run.id} ended ${progress.status}: ${progress.error ?? ''}`);
    }
  }
  async function readLoop(client, index) {
    // Each client reads a rows page first, then a statistic, then one statistic in `statEvery` calls.
    for (let i = 0; Date.now() < deadline; ) {
      const pick = runs.length > 1 && i % 2 === 1 ? runs[(index + i) % (runs.length - 1)] : current;
      if (!pick) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        continue;
      }
      try {
        if (i % statEvery === 1) {
          const t0 = performance.now();
          await client.call('stats.passAt', { dataset_id: pick.id, k: 4 });
          statMs.push(performance.now() - t0);
        } else {
          const t0 = performance.now();
          const offset = ((index * 7919 + i * 104_729) % Math.max(1, pick.expected - 100)) | 0;
          await client.call('datasets.rows', { id: pick.id, offset, limit: 100, sort: i % 3 === 0 ? 'reward' : 'ordinal' });
          pageMs.push(performance.now() - t0);
        }
      } catch (error) {
        errors.push(error.message);
      }
      i++;
    }
  }

  const t0 = Date.now();
  const ticker = setInterval(() => log(`  ${Math.round((Date.now() - t0) / 1000)} s: ${pageMs.length} pages, ${statMs.length} statistics, ${runs.length} runs, ${errors.length} errors`), 10_000);
  try {
    await Promise.all([writeLoop(), ...readers.map((client, index) => readLoop(client, index))]);
  } finally {
    clearInterval(ticker);
  }
  const elapsedS = (Date.now() - t0) / 1000;

  const checked = [];
  for (const run of runs) {
    const detail = await writer.call('runs.get', { id: run.id });
    const rows = await allPairs(writer, run.id);
    const whole = detail.status === 'done' && detail.rows === run.expected && rows.total === run.expected && rows.pairs === run.expected && rows.duplicates === 0;
    if (!whole) errors.push(`run ${run.id}: ${detail.status}, ${detail.rows} rows of ${run.expected} (${rows.pairs} distinct pairs, ${rows.duplicates} twice)`);
    checked.push({ id: run.id, expected: run.expected, rows: detail.rows, whole });
  }
  writer.close();
  readers.forEach((client) => client.close());
  const sorted = [...pageMs].sort((a, b) => a - b);
  const stats = [...statMs].sort((a, b) => a - b);
  return {
    clients,
    seconds: elapsedS,
    errors,
    runs: checked,
    rowsWritten: checked.reduce((sum, run) => sum + run.rows, 0),
    pages: { count: sorted.length, p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99), max: sorted.at(-1) },
    statistics: { count: stats.length, p50: percentile(stats, 50), p99: percentile(stats, 99) },
  };
}

/** Starts `while-desk serve --db DB --port 0` and resolves with its URL and a stop(). */
export function startServe(db) {
  const child = spawn(process.execPath, [path.join(root, 'bin/while-desk.mjs'), 'serve', '--db', db, '--port', '0'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const url = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve printed no URL in 20 s:\n${output}`)), 20_000);
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = /serving at (\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    output: () => output,
    alive: () => child.exitCode === null && child.signalCode === null,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

const ms = (value) => `${value.toFixed(1)} ms`;

async function main() {
  const clients = Number(process.argv[2] ?? 32);
  const seconds = Number(process.argv[3] ?? 60);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wd-soak-'));
  const serve = startServe(path.join(dir, 'soak.db'));
  try {
    const url = await serve.url;
    console.log(`soak: ${clients} WebSocket clients for ${seconds} s against ${url.replace(/token=.*/, 'token=...')} (${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)})`);
    const result = await soak({ url, clients, seconds, log: (line) => console.log(line) });
    console.log(`  ${result.pages.count} rows pages (100 rows each): p50 ${ms(result.pages.p50)}, p95 ${ms(result.pages.p95)}, p99 ${ms(result.pages.p99)}, max ${ms(result.pages.max)}`);
    console.log(`  ${result.statistics.count} pass@k statistics: p50 ${ms(result.statistics.p50)}, p99 ${ms(result.statistics.p99)}`);
    console.log(`  ${result.runs.length} seeded runs wrote ${result.rowsWritten} rows; every run whole: ${result.runs.every((run) => run.whole) ? 'yes' : 'NO'}`);
    console.log(`  errors: ${result.errors.length}${result.errors.length ? `\n    ${result.errors.slice(0, 10).join('\n    ')}` : ''}`);
    console.log(`  serve still running: ${serve.alive() ? 'yes' : 'NO'}`);
    if (result.errors.length || !serve.alive()) process.exitCode = 1;
  } finally {
    await serve.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
