// Bench: a sweep of 6 seeded variants x 200 tasks x k 4 with a module judge, noise runs 2, end to end through the
// built CLI (issue 11 figure: under 10 s). Run: node scripts/build-engine.mjs && node test/bench/sweep.bench.mjs
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TASKS = Number(process.argv[2] ?? 200);
const K = Number(process.argv[3] ?? 4);
const VARIANTS = 6;
const TARGET_S = 10;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wd-bench-sweep-'));
try {
  const base = fs.readFileSync(path.join(root, 'test/fixtures/tasks/support.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const tasks = path.join(dir, 'tasks.jsonl');
  fs.writeFileSync(tasks, Array.from({ length: TASKS }, (_, i) => JSON.stringify({ ...base[i % base.length], scenario_id: `t${i}`, prompt: `${base[i % base.length].prompt} (ticket ${i})` })).join('\n') + '\n');
  const variants = path.join(dir, 'variants.json');
  const prompts = ['careful', 'plain', 'terse'];
  const models = [{ name: 'seedA', rate: 0.05 }, { name: 'seedB', rate: 0.3 }];
  const list = prompts.flatMap((p, i) => models.map((m, j) => ({ label: `${p}@${m.name}`, system_prompt: `Be ${p}.`, agent: { kind: 'seeded', misbehave_rate: m.rate + 0.1 * i, seed: 10 * i + j } })));
  fs.writeFileSync(variants, JSON.stringify(list.slice(0, VARIANTS)));
  const judge = path.join(root, 'test/fixtures/tasks/reference-judge.mjs');
  const db = path.join(dir, 'bench.sqlite');
  const { main } = await import(path.join(root, 'out/engine/cli.mjs'));
  const args = ['sweep', '--tasks', tasks, '--variants', variants, '--judge', judge, '--k', String(K), '--noise-runs', '2', '--concurrency', '32', '--db', db, '--json'];
  let stdout = '';
  const write = process.stdout.write.bind(process.stdout);
  const load = os.loadavg()[0];
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  process.argv = [process.argv[0], 'while-desk', ...args];
  process.stdout.write = (chunk) => ((stdout += chunk), true);
  try {
    await main();
  } finally {
    process.stdout.write = write;
  }
  const wallS = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const code = process.exitCode ?? 0;
  process.exitCode = 0;
  if (code !== 0) throw new Error(`the sweep failed (exit ${code}): ${stdout}`);
  const report = JSON.parse(stdout.trim().split('\n').pop());
  const rollouts = (VARIANTS + 1) * TASKS * K;
  console.log(`sweep: ${VARIANTS} variants x ${TASKS} tasks x k=${K}, noise runs 2 = ${rollouts} rollouts graded by a module judge`);
  console.log(`  wall: ${wallS.toFixed(2)} s (target < ${TARGET_S} s: ${wallS < TARGET_S ? 'met' : 'NOT met'}); CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s in this process (judge workers not counted)`);
  console.log(`  machine: ${os.cpus().length} cores, load average ${load.toFixed(1)} at start`);
  console.log(`  best: ${report.best ?? 'none'}; noise floor ${report.noise_floor}; ranked ${report.variants.map((v) => `${v.label} ${v.scores.policy[0]}`).join(', ')}`);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
