// Agents and verdicts: runs carry an agent name and a version; one version per agent is serving; the verdict per
// behaviour, the eight eval-health checks and the brief are the platform's rules (platform-api.md §5.1-5.3).
import { z } from '../schema/zod';
import { AGENT_NAME } from './runs';
import { method } from './define';

const agentName = z.string().regex(AGENT_NAME, 'an agent name: letters, digits, ".", "_" or "-", starting with a letter or digit');

export const agentSummary = z.object({
  name: z.string(),
  serving: z.string().nullable(),
  versions: z.array(z.object({ version: z.string(), runs: z.number().int(), newest: z.string() })),
});
export type AgentSummary = z.infer<typeof agentSummary>;

/** The resolved verdict with the SDK's snake_case names, and its one line (shared/platform verdict). */
export const verdictResult = z.object({
  candidate: z.string().nullable(),
  serving: z.string().nullable(),
  delta: z.number().nullable(),
  excludes_zero: z.boolean().nullable(),
  regressions: z.number().int(),
  behavior: z.string().nullable(),
  noise_floor: z.number().nullable(),
  n: z.number().nullable(),
  judge_agreement: z.number().nullable(),
  judge_human_n: z.number().nullable(),
  reward_is_judge: z.boolean().nullable(),
  graded_by: z.enum(['program', 'judge']).nullable(),
  contamination: z.number().nullable(),
  replicated: z.array(z.string()),
  line: z.string(),
});

const step = z.object({ say: z.string(), cmd: z.string() });

export const evalHealth = z.object({
  name: z.string(),
  checks: z.array(
    z.object({ key: z.string(), label: z.string(), ok: z.boolean().nullable(), value: z.string(), why: z.string(), action: z.string(), rule: z.string(), cite: z.string(), fix: z.string() }),
  ),
  good: z.number().int(),
  total: z.number().int(),
  verdict: z.string(),
});

export const briefSchema = z.object({
  agent: z.string(),
  url: z.string(),
  happened: z.array(z.string()),
  means: z.string(),
  next: z.array(step),
  scored: z.number().int(),
  readable: z.array(step),
});

export const agentVerdictSchema = z.object({
  agent: z.string(),
  behavior: z.string(),
  verdict: verdictResult,
  checks: evalHealth,
  brief: briefSchema,
  /** What the rules read: the dashboard, behaviours and run rows in the platform's own shapes. */
  inputs: z.object({ dashboard: z.unknown(), behaviors: z.array(z.unknown()), runs: z.array(z.unknown()) }),
});
export type AgentVerdictReport = z.infer<typeof agentVerdictSchema>;

export const agentsApi = {
  'agents.list': method(z.object({}).default({}), z.array(agentSummary), 'Agents named by runs (--agent-name), their versions and the one serving'),
  'agents.promote': method(
    z.object({ agent: agentName, version: z.string().min(1).max(40) }),
    z.object({ agent: z.string(), serving: z.string(), previous: z.string().nullable() }),
    'Mark a version of an agent serving: the verdict reads every other version against it',
  ),
  'agents.verdict': method(
    z.object({ agent: agentName, behavior: z.string().min(1).max(64).default('policy'), version: z.string().min(1).max(40).optional() }),
    agentVerdictSchema,
    'The verdict on one behaviour (beats, trails or about the same; unproven with its gaps), the eight eval checks and the brief',
  ),
} as const;
