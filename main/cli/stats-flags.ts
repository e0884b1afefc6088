// The flags of `while-desk stats <name>`: the SDK's keyword arguments, kebab-case on the command line.
import { UsageError } from './command';
import type { StatsJobKind } from '../stats-workers/protocol';

type FlagType = 'int' | 'number' | 'bool' | 'string' | 'list' | 'pair' | 'int-or-null' | 'by' | 'probes' | 'number-or-map';

interface FlagSpec {
  key: string;
  type: FlagType;
}

export interface StatsSubcommand {
  name: string;
  kind: StatsJobKind;
  /** How many positional sources: exact count, or 'many', or 'optional' (holdout-size). */
  sources: number | 'many' | 'none';
  usage: string;
  flags: Record<string, FlagSpec>;
}

const f = (key: string, type: FlagType): FlagSpec => ({ key, type });
const boot = { 'n-boot': f('n_boot', 'int'), seed: f('seed', 'int') };

export const statsSubcommands: StatsSubcommand[] = [
  {
    name: 'pass-at', kind: 'pass_at', sources: 1, usage: 'pass-at SOURCE [--k N] [--min-k N] [--unanimous-short]',
    flags: { k: f('k', 'int-or-null'), 'min-k': f('min_k', 'int'), 'unanimous-short': f('unanimous_short', 'bool') },
  },
  {
    name: 'curriculum', kind: 'curriculum', sources: 1,
    usage: 'curriculum SOURCE [--solved 0.8] [--floor 0.2] [--band 0.2,0.8] [--tiers 3] [--min-rollouts 2]',
    flags: { solved: f('solved', 'number'), floor: f('floor', 'number'), band: f('band', 'pair'), tiers: f('tiers', 'int'), 'min-rollouts': f('min_rollouts', 'int') },
  },
  {
    name: 'judge-trust', kind: 'judge_trust', sources: 1,
    usage: 'judge-trust SOURCE [--judge FILE.mjs|FILE.json] [--probes all|a,b|none] [--gold FIELD] [--sample 40] [--seed 0] ...',
    flags: {
      judge: f('judge', 'string'), 'rubric-file': f('rubric_file', 'string'), gold: f('gold', 'string'), sample: f('sample', 'int'), seed: f('seed', 'int'),
      concurrency: f('concurrency', 'int'), probes: f('probes', 'probes'), rubric: f('rubric', 'string'), 'min-agreement': f('min_agreement', 'number'),
      'min-kappa': f('min_kappa', 'number'), 'allow-model-gold': f('allow_model_gold', 'bool'), 'length-gap-flag': f('length_gap_flag', 'number'),
      'flip-flag': f('flip_flag', 'number'), 'max-skipped-share': f('max_skipped_share', 'number'), 'judge-name': f('judge_name', 'string'),
    },
  },
  {
    name: 'compare', kind: 'compare', sources: 2, usage: 'compare A B [--metric pass_at_1|marker:NAME] [--n-boot 2000] [--seed 0] [--min-paired 5] [--level 0.95]',
    flags: { metric: f('metric', 'string'), ...boot, 'min-paired': f('min_paired', 'int'), level: f('level', 'number') },
  },
  {
    name: 'delta', kind: 'delta', sources: 2,
    usage: 'delta BEFORE AFTER [--target METRIC] [--must-not-regress a,b] [--run-std X] [--run-std-runs N] [--by KEY|auto|none] ...',
    flags: {
      target: f('target', 'string'), 'must-not-regress': f('must_not_regress', 'list'), 'lower-is-better': f('lower_is_better', 'list'),
      markers: f('markers', 'list'), by: f('by', 'by'), 'run-std': f('run_std', 'number-or-map'), 'run-std-runs': f('run_std_runs', 'int'),
      proxy: f('proxy', 'string'), ...boot, 'balance-rollouts': f('balance_rollouts', 'bool'), alpha: f('alpha', 'number'), power: f('power', 'number'),
      'ceiling-pass-rate': f('ceiling_pass_rate', 'number'), 'answered-gap-points': f('answered_gap_points', 'number'), 'answered-alpha': f('answered_alpha', 'number'),
    },
  },
  {
    name: 'eval-variance', kind: 'eval_variance', sources: 'many', usage: 'eval-variance RUN [RUN ...] [--metric pass_at_1] [--by KEY]',
    flags: { metric: f('metric', 'string'), by: f('by', 'string') },
  },
  {
    name: 'holdout-size', kind: 'holdout_size', sources: 'none',
    usage: 'holdout-size --effect 0.05 [--base 0.6] [--k 4] [--power 0.8] [--alpha 0.05] [--before SOURCE [--after SOURCE]] [--task-std X]',
    flags: {
      effect: f('effect', 'number'), base: f('base', 'number'), k: f('k', 'int'), power: f('power', 'number'), alpha: f('alpha', 'number'),
      before: f('before', 'string'), after: f('after', 'string'), rows: f('rows', 'string'), 'task-std': f('task_std', 'number'),
      'ceiling-pass-rate': f('ceiling_pass_rate', 'number'),
    },
  },
  {
    name: 'decontaminate', kind: 'decontaminate', sources: 1, usage: 'decontaminate TRAIN --against EVAL [--against EVAL2] [--n 8] [--fields prompt,answer] [--overlap 0.8]',
    flags: { against: f('against', 'list'), n: f('n', 'int'), fields: f('fields', 'list'), overlap: f('overlap', 'number') },
  },
];

/** The parseArgs option table of a subcommand (every value flag is a string; bool flags are booleans). */
export function parseArgsOptions(sub: StatsSubcommand) {
  const options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }> = {};
  for (const [flag, spec] of Object.entries(sub.flags)) {
    options[flag] = spec.type === 'bool' ? { type: 'boolean' } : spec.key === 'against' ? { type: 'string', multiple: true } : { type: 'string' };
  }
  return options;
}

function num(value: string, flag: string, integer: boolean): number {
  const parsed = Number(value);
  if (value.trim() === '' || !Number.isFinite(parsed) || (integer && !Number.isInteger(parsed))) {
    throw new UsageError(`--${flag} must be ${integer ? 'a whole number' : 'a number'} (got "${value}")`);
  }
  return parsed;
}

const split = (value: string) => value.split(',').map((part) => part.trim()).filter(Boolean);

function convert(flag: string, spec: FlagSpec, raw: string | boolean | string[]): unknown {
  if (spec.type === 'bool') return raw === true;
  if (Array.isArray(raw)) return raw.flatMap(split);
  const value = raw as string;
  switch (spec.type) {
    case 'int': return num(value, flag, true);
    case 'number': return num(value, flag, false);
    case 'int-or-null': return value === 'none' ? null : num(value, flag, true);
    case 'string': return value;
    case 'list': return split(value);
    case 'pair': {
      const parts = split(value);
      if (parts.length !== 2) throw new UsageError(`--${flag} takes two numbers, low,high (got "${value}")`);
      return parts.map((part) => num(part, flag, false));
    }
    case 'by': return value === 'auto' ? null : value === 'none' || value === 'false' ? false : value;
    case 'probes': return value === 'all' ? 'all' : value === 'none' ? null : split(value);
    case 'number-or-map': {
      if (!value.includes('=')) return num(value, flag, false);
      const map: Record<string, number | null> = {};
      for (const part of split(value)) {
        const [name, v] = part.split('=');
        map[name.trim()] = v.trim() === 'none' ? null : num(v, flag, false);
      }
      return map;
    }
    default: return value;
  }
}

/** Flag values -> the SDK's keyword arguments (only the flags that were given). */
export function flagsToParams(sub: StatsSubcommand, values: Record<string, unknown>): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const [flag, spec] of Object.entries(sub.flags)) {
    const raw = values[flag];
    if (raw === undefined || (spec.type === 'bool' && raw !== true)) continue;
    params[spec.key] = convert(flag, spec, raw as string | boolean | string[]);
  }
  return params;
}
