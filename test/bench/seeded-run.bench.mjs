// Bench: the seeded agent end to end into SQLite through the built CLI (issue 4 figure: >= 2,000 rollouts/s).
// Run: node scripts/build-engine.mjs && node test/bench/seeded-run.bench.mjs [TASKS] [K]
// Runs `while-desk run` in this process so its CPU time can be measured as well as its wall time: on a shared,
// loaded machine the wall figure says more about the neighbours than about the engine.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TASKS = Number(process.argv[2] ?? 200);
const K = Number(process.argv[3] ?? 100);
const TARGET = 2000;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wd-bench-seeded-'));
try {
  const base = fs.readFileSync(path.join(root, 'test/fixtures/tasks/support.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const tasks = path.join(dir, 'tasks.jsonl');
  fs.writeFileSync(tasks, Array.from({ length: TASKS }, (_, i) => JSON.stringify({ ...base[i % base.length], scenario_id: `t${i}` })).join('\n') + '\n');
  const db = path.join(dir, 'bench.sqlite');
  const { main } = await import(path.join(root, 'out/engine/cli.mjs'));
  let stdout = '';
  const args = ['run', '--tasks', tasks, '--agent', 'seeded', '--k', String(K), '--concurrency', '32', '--db', db, '--json'];
  const load = os.loadavg()[0];
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const write = process.stdout.write.bind(process.stdout);
  process.argv = [process.argv[0], 'while-desk', ...args];
  process.stdout.write = (chunk) => ((stdout += chunk), true);
  try {
    await main();
  } finally {
    process.stdout.write = write;
  }
  const code = process.exitCode ?? 0;
  process.exitCode = 0;
  const wallS = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  if (code !== 0) throw new Error(`the run failed (exit ${code}): ${stdout}`);
  const summary = JSON.parse(stdout.trim().split('\n').pop());
  const reader = new Database(db, { readonly: true });
  const rows = reader.prepare('SELECT COUNT(*) AS n FROM rows WHERE dataset_id = ?').get(summary.run_id).n;
  reader.close();
  const cpuS = (cpu.user + cpu.system) / 1e6;
  const wallRate = rows / wallS;
  const cpuRate = rows / cpuS;
  console.log(`seeded run: ${TASKS} tasks x k=${K} = ${rows} rollouts, each committed in its own transaction`);
  console.log(`  wall: ${wallS.toFixed(2)} s -> ${Math.round(wallRate)} rollouts/s (machine: ${os.cpus().length} cores, load average ${load.toFixed(1)} at start)`);
  console.log(`  CPU:  ${cpuS.toFixed(2)} s (user ${(cpu.user / 1e6).toFixed(2)}, system ${(cpu.system / 1e6).toFixed(2)}) -> ${Math.round(cpuRate)} rollouts per CPU-second`);
  console.log(`  target >= ${TARGET} rollouts/s: wall ${wallRate >= TARGET ? 'met' : 'NOT met'}, per CPU-second ${cpuRate >= TARGET ? 'met' : 'NOT met'}`);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
