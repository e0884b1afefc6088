// Sync figures against the fake While platform on loopback, through the real CLI in a child process:
// 1. pushing a 100k-row dataset: resident memory grows by < 50 MB, and >= 80% of the push is the upload itself;
// 2. draining 1,000 queued items with 5 ms a reply: >= 50 items/s.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { writeSdkRows } from './generate-rows.mjs';
import { startFakeWhilePlatform } from '../fixtures/fake-while-platform.mjs';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'while-desk-bench-sync-'));
const cli = path.resolve('bin/while-desk.mjs');
const home = path.join(dir, 'whileai');

function writeKey(fake) {
  fs.mkdirSync(home, { recursive: true });
  fs.writeFileSync(path.join(home, 'credentials.json'), JSON.stringify({ api_key: fake.addKey(), api_url: fake.url }, null, 2) + '\n', { mode: 0o600 });
}

/** Runs the CLI with the fake as the platform, sampling the child's resident memory every 5 ms. */
function run(fake, args) {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, WHILEAI_HOME: home, WHILEAI_API_URL: fake.url, WHILEAI_PLATFORM_URL: fake.url };
    delete env.WHILEAI_API_KEY;
    const started = performance.now();
    const child = spawn(process.execPath, [cli, ...args], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    const samples = [];
    child.stdout.on('data', (data) => (stdout += data));
    const sample = setInterval(() => {
      try {
        const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
        samples.push({ at: Date.now(), mb: Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024 });
      } catch {
        // exited
      }
    }, 5);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearInterval(sample);
      if (code !== 0) return reject(new Error(`while-desk ${args.join(' ')} exited ${code}: ${stdout}`));
      resolve({ seconds: (performance.now() - started) / 1000, samples, stdout });
    });
  });
}

/** RSS just before `from` and its peak until `to` (epoch ms). */
function growth(samples, from, to) {
  const before = samples.filter((s) => s.at <= from).at(-1)?.mb ?? samples[0]?.mb ?? 0;
  const peak = Math.max(...samples.filter((s) => s.at >= from && s.at <= to).map((s) => s.mb), before);
  return { before, peak, grew: peak - before };
}

// 1. A 100k-row push.
{
  const fake = await startFakeWhilePlatform();
  writeKey(fake);
  const db = path.join(dir, 'push.sqlite');
  const file = path.join(dir, 'rows-100k.jsonl');
  await writeSdkRows(file, 100_000);
  const imported = JSON.parse((await run(fake, ['import', file, '--db', db, '--json'])).stdout);
  for (const gate of [false, true]) {
    fake.reset();
    writeKey(fake);
    const pushed = await run(fake, ['push', imported.dataset_id, '--name', 'bench-100k', '--db', db, '--json', ...(gate ? [] : ['--no-gate'])]);
    const [create, , finalize] = fake.requests;
    const out = JSON.parse(pushed.stdout);
    const uploadS = out.item.result.upload_ms / 1000;
    const pushS = (out.timings.plan_ms + out.timings.send_ms) / 1000; // measured inside the engine: gate/split plan + send
    const upload = growth(pushed.samples, create.at, finalize.at);
    const whole = growth(pushed.samples, create.at - out.timings.plan_ms, finalize.at);
    const entry = fake.datasets()[0];
    console.log(
      `push 100k rows${gate ? ' with the gate' : ' (--no-gate)'}: ${entry.rows} rows, ${(entry.sizeBytes / 1e6).toFixed(1)} MB in ${pushS.toFixed(2)} s ` +
        `(plan ${(out.timings.plan_ms / 1000).toFixed(2)} s; the whole process ${pushed.seconds.toFixed(2)} s); upload ${uploadS.toFixed(2)} s = ${((100 * uploadS) / pushS).toFixed(0)}% of the push (target >= 80%)`,
    );
    console.log(
      `  resident memory: +${upload.grew.toFixed(0)} MB during the upload (over ${upload.before.toFixed(0)} MB with the engine open; target < 50 MB); +${whole.grew.toFixed(0)} MB over the whole push, plan included`,
    );
  }
  await fake.close();
}

// 2. Draining 1,000 queued items, 5 ms a reply.
{
  const fake = await startFakeWhilePlatform({ delayMs: 5 });
  writeKey(fake);
  const db = path.join(dir, 'drain.sqlite');
  const file = path.join(dir, 'rows-10.jsonl');
  await writeSdkRows(file, 10);
  const imported = JSON.parse((await run(fake, ['import', file, '--db', db, '--json'])).stdout);
  // 1,000 pushes queued as `push --queue-only` queues them (one at a time through the CLI would time the CLI's start).
  const writer = new Database(db);
  const insert = writer.prepare(`INSERT INTO sync_outbox (kind, dataset_id, payload_json, idempotency_key, state, created_at, updated_at) VALUES ('dataset.push', ?, ?, ?, 'queued', ?, ?)`);
  writer.transaction(() => {
    for (let i = 0; i < 1000; i++) insert.run(imported.dataset_id, JSON.stringify({ dataset_id: imported.dataset_id, name: `item-${i}`, gate: false }), randomUUID(), new Date().toISOString(), new Date().toISOString());
  })();
  writer.close();
  const startup = await run(fake, ['status', '--offline', '--db', db]);
  const drained = await run(fake, ['sync', '--json', '--db', db]);
  const result = JSON.parse(drained.stdout);
  const ready = fake.datasets().filter((ds) => ds.status === 'ready' && ds.rows === 10).length;
  const seconds = drained.seconds - startup.seconds;
  console.log(`drain 1,000 items at 5 ms a reply: ${result.done} done (${ready} ready on the fake, ${fake.requests.length} requests) in ${seconds.toFixed(2)} s = ${(result.done / seconds).toFixed(0)} items/s (target >= 50)`);
  await fake.close();
}

fs.rmSync(dir, { recursive: true, force: true });
