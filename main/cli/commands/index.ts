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
    name: 'export-training',
    summary: 'Write a dataset as training rows a trainer loads (OpenAI or TRL shape, loss mask, selection and decontamination first)',
    load: async () => (await import('./export-training')).exportTrainingCommand,
  },
  {
    name: 'pairs',
    summary: 'Judge two datasets pair by pair (same task), both ways round: A/B/tie counts and position_flip_rate',
    load: async () => (await import('./pairs')).pairsCommand,
  },
  {
    name: 'export-preference',
    summary: 'Write same-prompt pass/fail pairs as DPO rows (OpenAI or TRL shape)',
    load: async () => (await import('./export-preference')).exportPreferenceCommand,
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
    name: 'sweep',
    summary: 'Sweep prompts and models: every variant on one frozen task set, k and judge, ranked with intervals and a noise floor',
    load: async () => (await import('./sweep')).sweepCommand,
  },
  {
    name: 'promote',
    summary: 'Mark a version of an agent serving (runs name agent and version with --agent-name and --version)',
    load: async () => (await import('./promote')).promoteCommand,
  },
  {
    name: 'verdict',
    summary: "An agent's verdict per behaviour (beats, trails, about the same, unproven), its eight eval checks and the brief",
    load: async () => (await import('./verdict')).verdictCommand,
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
    name: 'markers',
    summary: "Stamp a dataset's rows with the style, trace and grounding markers and print their marker_summary",
    load: async () => (await import('./markers')).markersCommand,
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
    name: 'login',
    summary: 'Sign in to a While account (device code; the key is saved where the whileai SDK reads it)',
    load: async () => (await import('./login')).loginCommand,
  },
  {
    name: 'signup',
    summary: 'Create a trial While account and save its key',
    load: async () => (await import('./signup')).signupCommand,
  },
  {
    name: 'status',
    summary: 'The While account (key masked, tier, limits, usage) and the sync outbox',
    load: async () => (await import('./status')).statusCommand,
  },
  {
    name: 'logout',
    summary: 'Forget the saved While key (nothing is sent)',
    load: async () => (await import('./logout')).logoutCommand,
  },
  {
    name: 'push',
    summary: 'Push a dataset or run to the While account (gate and holdout split run locally first)',
    load: async () => (await import('./push')).pushCommand,
  },
  {
    name: 'sync',
    summary: 'Send everything queued in the sync outbox now',
    load: async () => (await import('./sync')).syncCommand,
  },
  {
    name: 'outbox',
    summary: 'The sync outbox: each item with its state and why',
    load: async () => (await import('./outbox')).outboxCommand,
  },
  {
    name: 'pull',
    summary: 'Bring a dataset from the While account into the local database',
    load: async () => (await import('./pull')).pullCommand,
  },
  {
    name: 'serve',
    summary: 'Serve the app to a browser on 127.0.0.1 (the URL carries a one-time token)',
    load: async () => (await import('./serve')).serveCommand,
  },
];
