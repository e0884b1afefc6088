// Every subcommand of `while-desk`, in the order `--help` lists them. A command's code loads only when it runs,
// so `--help` and a single command start fast.
import type { CommandEntry } from '../command';

export const commands: CommandEntry[] = [
  {
    name: 'init',
    summary: 'Write a small example project (tasks, a module judge, a rules judge) and print the command that runs it offline',
    load: async () => (await import('./init')).initCommand,
  },
  {
    name: 'import',
    summary: 'Import a JSONL file of rows (SDK rows or load_traces spellings) as a dataset',
    load: async () => (await import('./import')).importCommand,
  },
  {
    name: 'export',
    summary: 'Write a dataset or run back out as row-v1 JSONL (the privileged block removed, as the SDK does)',
    load: async () => (await import('./export')).exportCommand,
  },
  {
    name: 'delete',
    summary: 'Delete a dataset or run with its rows and labels (one with graded copies only with --with-copies)',
    load: async () => (await import('./delete')).deleteCommand,
  },
  {
    name: 'datasets',
    summary: 'List datasets and runs with their row counts',
    load: async () => (await import('./datasets')).datasetsCommand,
  },
  {
    name: 'run',
    summary: 'Simulate: every task answered k times by an agent, graded by a judge, saved as a run',
    load: async () => (await import('./run')).runCommand,
  },
  {
    name: 'runs',
    summary: 'List runs: id, name, status, rows, expected rows',
    load: async () => (await import('./runs')).runsCommand,
  },
  {
    name: 'resume',
    summary: 'Finish an interrupted or cancelled run (only its missing rollouts run)',
    load: async () => (await import('./resume')).resumeCommand,
  },
  {
    name: 'grade',
    summary: 'Grade a dataset or run with a judge into a new dataset that records its parent',
    load: async () => (await import('./grade')).gradeCommand,
  },
  {
    name: 'labels',
    summary: 'Gold labels: import or export them in the SDK label format, or summarise annotators (kappa per pair)',
    load: async () => (await import('./labels')).labelsCommand,
  },
  {
    name: 'stats',
    summary: 'pass@k, curriculum, judge trust, compare, delta, re-run variance, holdout size, decontamination',
    load: async () => (await import('./stats')).statsCommand,
  },
  {
    name: 'compare',
    summary: 'Compare a candidate run with a baseline: the delta verdict with intervals, noise floor and guards, and the per-task table',
    load: async () => (await import('./compare')).compareCommand,
  },
  {
    name: 'conformance',
    summary: 'Run the whileai SDK conformance cases and compare with their expected outputs',
    load: async () => (await import('./conformance')).conformanceCommand,
  },
  {
    name: 'serve',
    summary: 'Serve the app to a browser on 127.0.0.1 (the URL carries a one-time token)',
    load: async () => (await import('./serve')).serveCommand,
  },
];
