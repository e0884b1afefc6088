// A sweep's inputs checked before anything is written: the task set frozen, the labels by the platform's rules
// (shared/platform sweepLabels: 40 characters, unique), agent files present, the judge loadable.
import fs from 'node:fs';
import path from 'node:path';
import type { z } from '../../shared/schema/zod';
import { ApiError } from '../../shared/api/define';
import type { SweepConfig, sweepStartInput } from '../../shared/api/sweeps';
import { variantLabels } from '../../shared/api/sweep-variants';
import type { Task } from '../../shared/schema/task';
import { absoluteAgent, absoluteJudge, checkAgentFiles, loadCheckedJudge } from '../sim/run-inputs';
import { parseTaskSet } from '../sim/task-file';

export type SweepStartInput = z.output<typeof sweepStartInput>;

export interface CheckedSweep {
  config: SweepConfig;
  tasksText: string;
  tasks: Task[];
}

/** Every tool name the tasks offer, sorted: the harness's tools (its fingerprint covers them). */
export function toolNames(tasks: readonly Task[]): string[] {
  const names = new Set<string>();
  for (const task of tasks) for (const tool of task.tools) names.add(tool.function.name);
  return [...names].sort();
}

/** The label rules (shared/api/sweep-variants.ts), refused with the SDK's message as a bad input. */
export function checkedLabels(variants: Parameters<typeof variantLabels>[0], tasks: readonly Task[], behavior: string): string[] {
  try {
    return variantLabels(variants, toolNames(tasks), behavior);
  } catch (error) {
    throw new ApiError('bad_input', `the sweep was refused before any rollout; nothing was written: ${error instanceof Error ? error.message : String(error)}`, 'variants');
  }
}

export async function checkSweepInput(input: SweepStartInput, cwd = process.cwd()): Promise<CheckedSweep> {
  const tasksPath = input.tasks_path ? path.resolve(cwd, input.tasks_path) : null;
  let tasksText: string;
  try {
    tasksText = tasksPath ? fs.readFileSync(tasksPath, 'utf8') : (input.tasks_text ?? '');
  } catch (error) {
    throw new ApiError('not_found', `cannot read the task file ${tasksPath}: ${(error as Error).message}`, 'tasks_path');
  }
  const set = parseTaskSet(tasksText, tasksPath ?? '(task text)');
  const variants = input.variants.map((v) => ({ ...v, agent: absoluteAgent(v.agent, cwd) }));
  const labels = checkedLabels(variants, set.tasks, input.behavior);
  variants.forEach((v, i) => checkAgentFiles(v.agent, `variants.${i}.agent.model_path`));
  const judge = absoluteJudge(input.judge, cwd);
  // Loaded once here so a refused judge leaves nothing behind; each arm's run loads its own.
  const loaded = await loadCheckedJudge(judge, { seed: 0, concurrency: input.concurrency });
  await loaded.close?.().catch(() => undefined);
  const config: SweepConfig = {
    tasks_path: tasksPath,
    tasks_sha256: set.sha256,
    tasks_count: set.tasks.length,
    variants,
    labels,
    judge,
    k: input.k,
    noise_runs: input.noise_runs,
    behavior: input.behavior,
    concurrency: input.concurrency,
    max_turns: input.max_turns,
  };
  return { config, tasksText, tasks: set.tasks };
}
