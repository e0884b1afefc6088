// Issue 4 figure: against the local fake OpenAI server at concurrency 32, the engine reaches >= 90% of the request
// rate of plain keep-alive HTTP requests to the same server. The server runs in its own process.
// Usage: node test/bench/openai-throughput.bench.mjs [--seconds N] [--delay-ms N]
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const arg = (name, fallback) => {
  const index = process.argv.indexOf(name);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
};
/** Seconds per measure (each of ROUNDS rounds measures plain and agent once). */
const SECONDS = arg('--seconds', 1);
// Two servers: 40 ms per answer (a fast model: the engine must keep 32 requests in flight) and 2 ms (a stress
// test where both clients are CPU-bound and the engine's own work per rollout shows).
if (!process.argv.includes('--delay-ms')) {
  let failed = 0;
  for (const delay of [40, 2]) {
    const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--delay-ms', String(delay), ...process.argv.slice(2)], { stdio: 'inherit' });
    if (child.status !== 0) failed++;
  }
  // A case that crashed fails the bench, so `npm run bench` counts it rather than printing "0 failed".
  process.exit(failed ? 1 : 0);
}
const DELAY_MS = arg('--delay-ms', 2);
const CONCURRENCY = 32;
const ROUNDS = 3;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'openai-bench-'));

const server = spawn(process.execPath, [path.join(root, 'test/fixtures/fake-openai-server.mjs'), '--port', '0', '--delay-ms', String(DELAY_MS)], { stdio: ['ignore', 'pipe', 'inherit'] });
const baseUrl = await new Promise((resolve, reject) => {
  server.once('exit', (code) => reject(new Error(`fake server exited (${code})`)));
  server.stdout.on('data', (chunk) => {
    const match = String(chunk).match(/(http:\/\/127\.0\.0\.1:\d+\/v1)/);
    if (match) resolve(match[1]);
  });
});
const origin = new URL(baseUrl).origin;
const serverStats = async () => (await fetch(`${origin}/_stats`)).json();
const resetServer = () => fetch(`${origin}/_reset`, { method: 'POST' }).then((r) => r.text());

const tools = [{ type: 'function', function: { name: 'lookup_order', parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] } } }];
const messages = [{ role: 'user', content: 'Where is order A-1042?' }];

/** 32 workers in a tight loop for SECONDS; returns requests per second. */
async function measure(one) {
  let count = 0;
  const until = performance.now() + SECONDS * 1000;
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (performance.now() < until) {
      await one();
      count++;
    }
  }));
  return count / ((performance.now() - started) / 1000);
}

async function plainRate() {
  const body = JSON.stringify({ model: 'fake', messages, tools, temperature: 0.8, max_tokens: 768 });
  return measure(async () => {
    const response = await fetch(`${baseUrl}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    await response.json();
  });
}

/** The leanest client: node:http with a keep-alive agent, body read as text and parsed. */
const httpPool = new http.Agent({ keepAlive: true, maxSockets: Infinity });
async function plainHttpRate() {
  const body = JSON.stringify({ model: 'fake', messages, tools, temperature: 0.8, max_tokens: 768 });
  const url = new URL(`${baseUrl}/chat/completions`);
  return measure(() => new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent: httpPool, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  }));
}

let createOpenAiAgent;
async function agentRate() {
  if (!createOpenAiAgent) {
    // Built inside the checkout (out/bench/), not in the temporary folder: its packages stay external and
    // resolve from the project's node_modules, as the engine's own build does.
    const outdir = path.join(root, 'out/bench');
    await build({ entryPoints: { 'openai-agent': path.join(root, 'main/agents/openai-agent.ts') }, outdir, outExtension: { '.js': '.mjs' }, bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', logLevel: 'warning' });
    ({ createOpenAiAgent } = await import(pathToFileURL(path.join(outdir, 'openai-agent.mjs')).href));
  }
  const agent = createOpenAiAgent({ model: 'fake', baseUrl, concurrency: CONCURRENCY });
  const signal = new AbortController().signal;
  let n = 0;
  const rate = await measure(async () => {
    const result = await agent.turn({ messages, tools, rollout: { scenarioId: 's', rolloutIndex: n++, evalRun: 0, seed: 0, turn: 0 }, signal });
    if (result.toolCalls.length !== 1) throw new Error('the agent did not parse the tool call');
  });
  await agent.close();
  return rate;
}

/** The whole engine: `while-desk run` (rollout loop, tool world, SQLite commits), rate seen by the server. */
function runRate(target) {
  const cli = path.join(root, 'bin/while-desk.mjs');
  if (!fs.existsSync(path.join(root, 'out/engine/cli.mjs'))) return { skipped: 'out/engine/cli.mjs is missing: run npm run build:engine' };
  const tasks = Math.max(50, Math.round((target * 3) / 2 / 4));
  const lines = Array.from({ length: tasks }, (_, i) =>
    JSON.stringify({ scenario_id: `t${i}`, prompt: `Where is order A-${1000 + i}?`, tools, world: { lookup_order: [{ result: { status: 'shipped' } }] } }),
  );
  const taskFile = path.join(tmp, 'tasks.jsonl');
  fs.writeFileSync(taskFile, lines.join('\n') + '\n');
  const started = performance.now();
  const child = spawnSync(process.execPath, [cli, 'run', '--tasks', taskFile, '--agent', `openai:fake@${baseUrl}`, '--k', '4', '--concurrency', String(CONCURRENCY), '--db', path.join(tmp, 'bench.db'), '--json'], { encoding: 'utf8', timeout: 120_000 });
  const wallS = (performance.now() - started) / 1000;
  if (child.status !== 0) return { skipped: `while-desk run failed (${child.status}): ${(child.stderr || child.stdout).slice(0, 300)}` };
  const summary = JSON.parse(child.stdout.trim().split('\n').pop());
  return { rollouts: tasks * 4, rows: summary.rows, wallS };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

try {
  // Alternate the two in short rounds and take medians, so load from other processes hits both alike.
  // Warm-up (discarded): JIT, sockets, the server's first answers.
  await plainRate();
  await plainHttpRate();
  await agentRate();
  await resetServer();
  const plains = [];
  const https_ = [];
  const agents = [];
  for (let round = 0; round < ROUNDS; round++) {
    plains.push(await plainRate());
    https_.push(await plainHttpRate());
    agents.push(await agentRate());
  }
  const plain = median(plains);
  const plainHttp = median(https_);
  const agent = median(agents);
  await resetServer();
  const run = runRate(plain);
  const stats = await serverStats();
  const runServerRate = stats.completions > 1 ? stats.completions / ((stats.lastAt - stats.firstAt) / 1000) : 0;
  const pct = (x) => `${((x / plain) * 100).toFixed(1)}%`;
  const pctHttp = (x) => `${((x / plainHttp) * 100).toFixed(1)}% of node:http`;
  console.log(`openai throughput (fake server in its own process, ${DELAY_MS} ms answer delay, concurrency ${CONCURRENCY}, medians of ${ROUNDS} x ${SECONDS} s, ${os.cpus().length} CPUs, load ${os.loadavg()[0].toFixed(1)})`);
  const round = (list) => list.map((x) => x.toFixed(0)).join(' ');
  console.log(`  rounds: plain fetch ${round(plains)} | plain node:http ${round(https_)} | agent ${round(agents)}`);
  console.log(`  plain fetch keep-alive     ${plain.toFixed(0).padStart(7)} req/s   (the baseline of the target)`);
  console.log(`  plain node:http keep-alive ${plainHttp.toFixed(0).padStart(7)} req/s   (the leanest client, for reference)`);
  console.log(`  OpenAI agent (turn())      ${agent.toFixed(0).padStart(7)} req/s  = ${pct(agent)} of plain fetch, ${pctHttp(agent)}  ${agent >= 0.9 * plainHttp ? 'PASS' : 'BELOW'} (target >= 90% of node:http)`);
  if (run.skipped) console.log(`  while-desk run             skipped: ${run.skipped}`);
  else console.log(`  while-desk run (engine)    ${runServerRate.toFixed(0).padStart(7)} req/s  = ${pct(runServerRate)} of plain fetch, ${pctHttp(runServerRate)}  ${runServerRate >= 0.9 * plainHttp ? 'PASS' : 'BELOW'} (target >= 90% of node:http; ${run.rows} rows, ${stats.completions} requests, ${run.wallS.toFixed(1)} s wall incl. start-up)`);
} finally {
  httpPool.destroy();
  server.kill();
  fs.rmSync(tmp, { recursive: true, force: true });
}
