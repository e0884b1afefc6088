// Bench: a seeded run graded in the loop by a module judge, whole process, end to end
// (issue 9 figure: >= 5,000 rollouts/s). Best of RUNS, since the machine is shared. The judge runs in processes of its own.
// Each try runs the same tasks without the judge right after, so the judge's own cost reads off the same minute.
// "per CPU-second" counts the engine process's threads (the summary's pass@1 worker included), not the judge's.
// Run: node scripts/build-engine.mjs && node test/bench/seeded-judge.bench.mjs [TASKS] [K] [RUNS] (2000 x 4 = 8k rollouts by
// default; 5000 4 for 20k). Profile the judge's process too: it is forked with the engine's execArgv replaced, so
// run the engine under --cpu-prof and, for the judge, add the flags to judge-isolate.ts's execArgv while measuring.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TASKS = Number(process.argv[2] ?? 2000);
const K = Number(process.argv[3] ?? 4);
const RUNS = Number(process.argv[4] ?? 5);
const TARGET = 5000;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wd-bench-judge-'));
try {
  const base = fs.readFileSync(path.join(root, 'test/fixtures/tasks/support.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const tasks = path.join(dir, 'tasks.jsonl');
  fs.writeFileSync(tasks, Array.from({ length: TASKS }, (_, i) => JSON.stringify({ ...base[i % base.length], scenario_id: `t${i}` })).join('\n') + '\n');
  const judge = path.join(dir, 'judge.mjs');
  fs.writeFileSync(judge, 'export default function bench_judge(row) {\n  const called = Array.isArray(row.steps) && row.steps.some((step) => step.result !== undefined);\n  return { reward: called && typeof row.final_text === "string" && row.final_text.length > 0 ? 1 : 0, reason: called ? "used a tool" : "no tool" };\n}\n');
  // The child reports its own CPU time as it exits (its threads; not the judge's own process).
  const cpuHook = 'data:text/javascript,process.on("exit",()=>{const u=process.cpuUsage();process.stderr.write("CPU_US "+(u.user+u.system)+"\\n")})';
  const once = (i, withJudge) => {
    const db = path.join(dir, `bench-${i}-${withJudge ? 'judge' : 'plain'}.sqlite`);
    const t0 = performance.now();
    const child = spawnSync(process.execPath, [`--import=${cpuHook}`, path.join(root, 'bin/while-desk.mjs'), 'run', '--tasks', tasks, '--agent', 'seeded', '--k', String(K), ...(withJudge ? ['--judge', judge] : []), '--db', db, '--json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const wallS = (performance.now() - t0) / 1000;
    if (child.status !== 0) throw new Error(`the run failed (exit ${child.status}): ${child.stderr}`);
    const out = child.stdout;
    const cpuS = Number(/CPU_US (\d+)/.exec(child.stderr)?.[1] ?? NaN) / 1e6;
    const summary = JSON.parse(out.trim().split('\n').pop());
    if (summary.status !== 'done' || summary.rows !== TASKS * K) throw new Error(`the run did not finish: ${out}`);
    if (withJudge && summary.pass_at_1 === null) throw new Error('the judge graded nothing');
    fs.rmSync(db, { force: true });
    return { rows: summary.rows, wallS, cpuS, pass: summary.pass_at_1 };
  };
  const rates = [];
  const cpuRates = [];
  const plainRates = [];
  const plainCpuRates = [];
  for (let i = 0; i < RUNS; i++) {
    const judged = once(i, true);
    const plain = once(i, false);
    rates.push(judged.rows / judged.wallS);
    cpuRates.push(judged.rows / judged.cpuS);
    plainRates.push(plain.rows / plain.wallS);
    plainCpuRates.push(plain.rows / plain.cpuS);
    console.log(`  try ${i + 1}: judged ${judged.rows} rollouts in ${judged.wallS.toFixed(2)} s -> ${Math.round(judged.rows / judged.wallS)}/s (CPU ${judged.cpuS.toFixed(2)} s -> ${Math.round(judged.rows / judged.cpuS)}/CPU-s, pass@1 ${judged.pass}); no judge ${plain.wallS.toFixed(2)} s -> ${Math.round(plain.rows / plain.wallS)}/s (${Math.round(plain.rows / plain.cpuS)}/CPU-s)`);
  }
  console.log(`  no judge, same minutes: best ${Math.round(Math.max(...plainRates))} rollouts/s wall, ${Math.round(Math.max(...plainCpuRates))} per CPU-second`);
  const best = Math.max(...rates);
  console.log(`seeded run + module judge: ${TASKS} tasks x k=${K}, whole process (machine: ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)})`);
  const bestCpu = Math.max(...cpuRates);
  console.log(`  best of ${RUNS}: ${Math.round(best)} rollouts/s wall, ${Math.round(bestCpu)} per CPU-second; target >= ${TARGET}: wall ${best >= TARGET ? 'met' : 'NOT met'}, per CPU-second ${bestCpu >= TARGET ? 'met' : 'NOT met'}`);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
