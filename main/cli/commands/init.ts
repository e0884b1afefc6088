// while-desk init [DIR]: writes a small example project (tasks, a module judge, a rules judge) and prints the
// one command that runs it offline with the seeded agent.
import fs from 'node:fs';
import path from 'node:path';
import { type Command, UsageError, parseFlags } from '../command';
import { EXAMPLE_MODULE_JUDGE, EXAMPLE_RULES_JUDGE } from '../init/example-judges';
import { EXAMPLE_TASKS } from '../init/example-tasks';

const FILES = ['tasks.jsonl', 'judge.mjs', 'rules.json'] as const;

/** A path as the person should type it: relative to where they are when that is shorter, quoted when it has spaces. */
function shown(file: string): string {
  const relative = path.relative(process.cwd(), file);
  const best = relative && !relative.startsWith('..') && relative.length < file.length ? relative : file;
  return /[\s"'$`\\]/.test(best) ? JSON.stringify(best) : best;
}

export const initCommand: Command = {
  usage: 'while-desk init [DIR] [--force]',
  async run(args, io) {
    const { values, positionals } = parseFlags(args, { force: { type: 'boolean', default: false } });
    if (positionals.length > 1) throw new UsageError('give at most one folder');
    const dir = path.resolve(positionals[0] ?? 'while-desk-example');
    const existing = FILES.filter((name) => fs.existsSync(path.join(dir, name)));
    if (existing.length > 0 && !values.force) {
      io.err(`while-desk init: ${dir} already holds ${existing.join(', ')}; pass --force to overwrite them\n`);
      return 1;
    }
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'tasks.jsonl'), EXAMPLE_TASKS.map((task) => JSON.stringify(task)).join('\n') + '\n');
    fs.writeFileSync(path.join(dir, 'judge.mjs'), EXAMPLE_MODULE_JUDGE);
    fs.writeFileSync(path.join(dir, 'rules.json'), JSON.stringify(EXAMPLE_RULES_JUDGE, null, 2) + '\n');
    const tasks = shown(path.join(dir, 'tasks.jsonl'));
    io.err(`wrote ${FILES.map((name) => shown(path.join(dir, name))).join(', ')} (formats: docs/task-file.md, docs/judges.md)\n`);
    io.err('run it offline with the seeded agent (no model needed):\n');
    io.out(`while-desk run --tasks ${tasks} --agent seeded --k 4 --judge ${shown(path.join(dir, 'judge.mjs'))}\n`);
    io.err(`or grade with the rules judge instead: --judge ${shown(path.join(dir, 'rules.json'))}\n`);
    return 0;
  },
};
