// Shared by the e2e specs and the rows bench: start `while-desk serve` on a temp db, launch Debian's Chromium.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const CHROME_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync',
];

/** Says what is missing before anything starts, so a failure reads as a cause, not a timeout. */
export function checkPrerequisites() {
  const missing = [];
  if (!existsSync(path.join(ROOT, 'out/engine/cli.mjs'))) missing.push('the engine bundle (run `npm run build:engine`)');
  if (!existsSync(path.join(ROOT, 'out/renderer/index.html'))) missing.push('the renderer (run `npm run build`)');
  if (!existsSync(CHROMIUM)) missing.push(`Chromium at ${CHROMIUM} (run \`apt-get install -y chromium\`)`);
  return missing;
}

export function tempDir(prefix = 'while-desk-e2e-') {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

export function runCli(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin/while-desk.mjs'), ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

/** Imports a JSONL file with the CLI (`extra`: more flags) and resolves with the new dataset's id; throws what the CLI said on failure. */
export async function importDataset(file, db, extra = []) {
  const imported = await runCli(['import', file, '--db', db, ...extra, '--json']);
  if (imported.code !== 0) throw new Error(`import failed: ${imported.err || imported.out}`);
  return JSON.parse(imported.out.trim().split('\n').pop()).dataset_id;
}

/** Starts `while-desk serve --port 0` and resolves with its URL once it printed `While Desk is serving at URL`. */
export function startServe(dbPath, { checkOutputs = true } = {}) {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin/while-desk.mjs'), 'serve', '--db', dbPath, '--port', '0'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    // The app's every call is checked against its output schema too (a benchmark of what a person waits for turns
    // it off, as the app has it).
    env: { ...process.env, WHILE_DESK_CHECK_OUTPUTS: checkOutputs ? '1' : '0' },
  });
  let log = '';
  const url = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve printed no URL within 20 s:\n${log}`)), 20_000);
    const onData = (chunk) => {
      log += chunk;
      const match = /While Desk is serving at (\S+)/.exec(log);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk) => (log += chunk));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code} before printing its URL:\n${log}`));
    });
  });
  return {
    url,
    log: () => log,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** One Chromium for the whole run, with a fresh profile in a temp dir. */
export async function launchBrowser() {
  const profile = tempDir('while-desk-chromium-');
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROME_ARGS,
    viewport: { width: 1400, height: 900 },
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export function writeJsonl(dir, name, lines) {
  const file = path.join(dir, name);
  writeFileSync(file, lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n') + '\n');
  return file;
}

/** A row v1 with a tool step, as the SDK writes it. */
export function sampleRow(i, overrides = {}) {
  return {
    schema_version: '1',
    scenario_id: `refund-${Math.floor(i / 2)}`,
    rollout_index: i % 2,
    prompt: `Please refund order ${5000 + i}; it arrived broken.`,
    steps: [
      { tool: 'lookup_order', arguments: { order_id: 5000 + i }, result: { status: 'delivered', total: 42.5 } },
      { tool: 'issue_refund', arguments: { order_id: 5000 + i, amount: 42.5 }, result: { ok: true, refund_id: `R-${i}` } },
    ],
    final_text: `I refunded order ${5000 + i}: 42.50 is on its way.`,
    reward: i % 3 === 0 ? 0 : 1,
    markers: { grounded: 1, polite: 0.5 },
    judge_name: 'refund_rules',
    lineage: { system_prompt_sha: 'abc123', eval_run: 0 },
    ...overrides,
  };
}
