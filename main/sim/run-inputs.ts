// A run's inputs made safe to store: every path absolute (so a run resumes from any folder), the model file there,
// and the judge loaded and checked, all before anything is written.
import fs from 'node:fs';
import path from 'node:path';
import { ApiError } from '../../shared/api/define';
import { isModelJudge, type AgentSettings, type JudgeSettings } from '../../shared/schema/run-settings';
import type { RowJudge } from '../judges/judge-types';
import { loadJudge } from '../judges/load-judge';

function absolute(file: string, cwd: string): string {
  return path.resolve(cwd, file);
}

export function absoluteAgent(agent: AgentSettings, cwd: string): AgentSettings {
  return agent.kind === 'llama' ? { ...agent, model_path: absolute(agent.model_path, cwd) } : agent;
}

export function absoluteJudge(judge: JudgeSettings, cwd: string): JudgeSettings {
  if (!isModelJudge(judge)) return { ...judge, path: absolute(judge.path, cwd) };
  return { ...judge, agent: absoluteAgent(judge.agent, cwd), rubric_path: judge.rubric_path === null ? null : absolute(judge.rubric_path, cwd) };
}

/** A local model must be there before a run is stored (loading it happens when the run starts). */
export function checkAgentFiles(agent: AgentSettings, where: string): void {
  if (agent.kind !== 'llama') return;
  if (!fs.existsSync(agent.model_path)) throw new ApiError('not_found', `no model file at ${agent.model_path}`, where);
}

/** The run's per-row judge deadline (judge_timeout_s, default RUN_DEFAULTS.judge_timeout_s); undefined: the judge's own. */
export function judgeTimeoutMs(judge: JudgeSettings): number | undefined {
  return judge.timeout_s === null ? undefined : judge.timeout_s * 1000;
}

/** Loads the judge (a missing file, a syntax error, a bad rules file are refused here, with their message). */
export async function loadCheckedJudge(judge: JudgeSettings, options: { seed: number; concurrency: number }): Promise<RowJudge> {
  if (isModelJudge(judge)) checkAgentFiles(judge.agent, 'judge.agent');
  try {
    return await loadJudge(judge, { seed: options.seed, concurrency: options.concurrency, timeoutMs: judgeTimeoutMs(judge) });
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError('bad_input', `the judge was refused; nothing was run: ${error instanceof Error ? error.message : String(error)}`, 'judge');
  }
}
