// training.preview / export / cancel through the engine, and the download `serve` hands a browser: token-checked,
// fetched once, nothing but the file the engine wrote.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../main/engine/engine';
import { startServer, type RunningServer } from '../../main/engine/transports/ws-server';
import { tempDir } from '../helpers/temp';

let engine: Engine;
let server: RunningServer;
let dir: string;
let id: string;

function get(url: string): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    http.get(url, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    }).on('error', reject);
  });
}

/** Multi-turn graded rows: `tasks` tasks x 4 rollouts, a tool call each, mixed rewards. */
function rowsFile(file: string, tasks = 500): string {
  const lines: string[] = [];
  for (let t = 0; t < tasks; t++) {
    for (let r = 0; r < 4; r++) {
      const row = {
        schema_version: '1',
        scenario_id: `task-${t}`,
        rollout_index: r,
        prompt: `Where is order ${1000 + t}?`,
        steps: [{ tool: 'lookup_order', arguments: { id: String(1000 + t) }, result: { status: 'ok', eta: 'tuesday', body: 'x'.repeat(300) } }],
        final_text: r % 2 ? 'It ships on Tuesday.' : 'I could not find it.',
        reward: r % 2,
      };
      lines.push(JSON.stringify(row).replace('"reward":1', '"reward":1.0'));
    }
  }
  fs.writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

beforeAll(async () => {
  dir = tempDir();
  const staticDir = path.join(dir, 'static');
  fs.mkdirSync(staticDir);
  fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>While Desk</title>');
  engine = createEngine({ dbPath: path.join(dir, 'desk.db') });
  server = await startServer({ engine, staticDir });
  id = (await engine.call('datasets.importFile', { path: rowsFile(path.join(dir, 'rows.jsonl')), name: 'orders' })).dataset_id as string;
});

afterAll(async () => {
  await server.close();
  await engine.close();
});

describe('training export through the engine', () => {
  it('previews the pipeline: counts per stage and three samples, no file', async () => {
    const preview = await engine.call('training.preview', { dataset_id: id, settings: { select: 'top_per_prompt', max_tool_output_chars: 100 } });
    expect(preview.counts.rows_in).toBe(2000);
    expect(preview.counts.rows_kept).toBe(500);
    expect(preview.counts.dropped_by_rule.n_not_pass).toBe(1000);
    expect(preview.counts.tool_output_truncated).toBe(500);
    expect(preview.counts.tool_output_tokens_cut).toBe(Math.round(preview.counts.tool_output_chars_cut / 4));
    expect(preview.samples).toHaveLength(3);
    expect(JSON.parse(preview.samples[0]).messages[0]).toEqual({ role: 'user', content: expect.stringMatching(/^Where is order/) });
    expect(preview.stages.map((s) => s.stage)).toEqual(['read', 'select', 'export']);
    expect(preview.path).toBeNull();
    expect(preview.report.selection).toMatchObject({ selection: 'top_per_prompt', n_selected: 500 });
  });

  it('a cancelled export leaves no file under the chosen name and no partial file', async () => {
    const target = path.join(dir, 'cancelled.jsonl');
    const stop = engine.on('training.progress', (event) => {
      if (event.job_id === 'job-cancel' && event.stage === 'writing' && event.done > 0) void engine.call('training.cancel', { job_id: 'job-cancel' });
    });
    await expect(engine.call('training.export', { dataset_id: id, settings: {}, path: target, job_id: 'job-cancel' })).rejects.toMatchObject({ code: 'cancelled' });
    stop();
    expect(fs.existsSync(target)).toBe(false);
    expect(fs.readdirSync(dir).filter((f) => f.includes('cancelled'))).toEqual([]);
  });

  it('an empty selection is refused and writes nothing; a bad setting is refused by the schema', async () => {
    const target = path.join(dir, 'empty.jsonl');
    await expect(engine.call('training.export', { dataset_id: id, settings: { select: 'top_per_prompt', min_reward: 5 }, path: target })).rejects.toMatchObject({ code: 'bad_input', message: expect.stringMatching(/kept no rows/) });
    await expect(engine.call('training.export', { dataset_id: id, settings: { format: 'xml' as never }, path: target })).rejects.toMatchObject({ code: 'bad_input' });
    expect(fs.existsSync(target)).toBe(false);
  });

  it('serves a download once, with the token, and nothing else', async () => {
    const done = await engine.call('training.export', { dataset_id: id, settings: { format: 'trl' }, download: true });
    expect(done.download_id).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    expect(done.path).toBeNull();
    const base = `http://127.0.0.1:${server.port}/download/`;
    expect((await get(`${base}${done.download_id}?token=wrong`)).status).toBe(401);
    expect((await get(`${base}..%2F..%2Fetc%2Fpasswd?token=${server.token}`)).status).toBe(404);
    const first = await get(`${base}${done.download_id}?token=${server.token}`);
    expect(first.status).toBe(200);
    expect(first.headers['content-disposition']).toBe(`attachment; filename="${done.file_name}"`);
    const lines = first.body.trim().split('\n');
    expect(lines).toHaveLength(2000);
    expect(JSON.parse(lines[1]).reward).toBe(1);
    expect(lines[1]).toContain('"reward": 1.0');
    expect(lines[0]).not.toContain('"loss_mask"');
    expect(Buffer.byteLength(first.body)).toBe(done.bytes);
    expect((await get(`${base}${done.download_id}?token=${server.token}`)).status).toBe(404);
  });

  it('converts on a thread of its own the same file and report as on the engine thread, and cancels there too', async () => {
    const big = (await engine.call('datasets.importFile', { path: rowsFile(path.join(dir, 'big.jsonl'), 1100), name: 'big' })).dataset_id as string;
    const settings = { format: 'trl' as const, mask_mode: 'final' as const, max_tool_output_chars: 50 };
    const saved = process.env.WHILE_DESK_EXPORT_THREADS;
    try {
      process.env.WHILE_DESK_EXPORT_THREADS = '0';
      const here = await engine.call('training.export', { dataset_id: big, settings, path: path.join(dir, 'here.jsonl') });
      process.env.WHILE_DESK_EXPORT_THREADS = '1';
      const threaded = await engine.call('training.export', { dataset_id: big, settings, path: path.join(dir, 'threaded.jsonl') });
      expect(fs.readFileSync(path.join(dir, 'threaded.jsonl'), 'utf8')).toBe(fs.readFileSync(path.join(dir, 'here.jsonl'), 'utf8'));
      expect({ ...threaded.report, path: null }).toEqual({ ...here.report, path: null });
      expect(threaded.samples).toEqual(here.samples);
      const target = path.join(dir, 'threaded-cancelled.jsonl');
      const stop = engine.on('training.progress', (event) => {
        if (event.job_id === 'job-t' && event.stage === 'writing' && event.done > 0) void engine.call('training.cancel', { job_id: 'job-t' });
      });
      await expect(engine.call('training.export', { dataset_id: big, settings, path: target, job_id: 'job-t' })).rejects.toMatchObject({ code: 'cancelled' });
      stop();
      expect(fs.readdirSync(dir).filter((f) => f.includes('threaded-cancelled'))).toEqual([]);
    } finally {
      if (saved === undefined) delete process.env.WHILE_DESK_EXPORT_THREADS;
      else process.env.WHILE_DESK_EXPORT_THREADS = saved;
    }
  });

  it('reads the rows for a selection on a thread of its own too, and selects what the engine thread selects', async () => {
    const big = (await engine.call('datasets.importFile', { path: rowsFile(path.join(dir, 'select.jsonl'), 1100), name: 'select' })).dataset_id as string;
    const saved = process.env.WHILE_DESK_EXPORT_THREADS;
    try {
      // min_reward 0 keeps all 4400 rows: converted on the threads started afresh once the facts were read.
      for (const settings of [{ select: 'top_per_prompt' as const, min_reward: 1 }, { select: 'rl' as const }, { min_reward: 1 }, { min_reward: 0 }]) {
        const out: Record<string, unknown>[] = [];
        for (const threads of ['0', '1']) {
          process.env.WHILE_DESK_EXPORT_THREADS = threads;
          const target = path.join(dir, `select-${threads}.jsonl`);
          const done = await engine.call('training.export', { dataset_id: big, settings, path: target });
          out.push({ file: fs.readFileSync(target, 'utf8'), stages: done.stages.map((s) => ({ ...s, report: s.stage === 'export' ? null : s.report })), counts: done.counts });
        }
        expect(out[1]).toEqual(out[0]);
        expect((out[0].counts as { rows_written: number }).rows_written).toBeGreaterThan(0);
      }
    } finally {
      if (saved === undefined) delete process.env.WHILE_DESK_EXPORT_THREADS;
      else process.env.WHILE_DESK_EXPORT_THREADS = saved;
    }
  });

  it('converts a page with a 24 MB row on a conversion thread and writes the file the engine thread writes', async () => {
    // Row 3001 (page 15 of 22) carries a 24 MB tool output: a thread's heap grows for it, as the engine thread's does.
    const file = rowsFile(path.join(dir, 'huge.jsonl'), 1100);
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    lines[3001] = lines[3001].replace('"body":"x', `"body":"${'y'.repeat(24 << 20)}x`);
    fs.writeFileSync(file, lines.join('\n'));
    const huge = (await engine.call('datasets.importFile', { path: file, name: 'huge' })).dataset_id as string;
    const saved = process.env.WHILE_DESK_EXPORT_THREADS;
    try {
      process.env.WHILE_DESK_EXPORT_THREADS = '0';
      const here = await engine.call('training.export', { dataset_id: huge, settings: {}, path: path.join(dir, 'huge-here.jsonl') });
      process.env.WHILE_DESK_EXPORT_THREADS = '1';
      const threaded = await engine.call('training.export', { dataset_id: huge, settings: {}, path: path.join(dir, 'huge-threaded.jsonl') });
      expect(threaded.counts.rows_written).toBe(4400);
      expect(fs.readFileSync(path.join(dir, 'huge-threaded.jsonl'), 'utf8')).toBe(fs.readFileSync(path.join(dir, 'huge-here.jsonl'), 'utf8'));
      expect({ ...threaded.report, path: null }).toEqual({ ...here.report, path: null });
    } finally {
      if (saved === undefined) delete process.env.WHILE_DESK_EXPORT_THREADS;
      else process.env.WHILE_DESK_EXPORT_THREADS = saved;
    }
  });

  it('exports preference pairs', async () => {
    const target = path.join(dir, 'dpo.jsonl');
    const done = await engine.call('training.exportPreference', { dataset_id: id, format: 'openai', path: target });
    expect(done.report.pairs).toBe(500);
    expect(done.pairs_report.prompts_with_contrast).toBe(500);
    expect(fs.readFileSync(target, 'utf8').trim().split('\n')).toHaveLength(500);
  });
});
