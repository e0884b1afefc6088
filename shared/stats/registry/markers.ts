// The marker reports (sdk-semantics.md §7; docs/markers.md): style_report, refusal_report, trace_flag_report,
// grounding_report and marker_summary, each on one row source. They read the rows as they are and change nothing;
// `while-desk markers` is what stamps markers onto a dataset.
import { markerSummary } from '../../platform/marker-summary';
import { groundingReport } from '../markers/grounding-report';
import { refusalReport, styleReport } from '../markers/style-report';
import { traceFlagReport } from '../markers/trace-report';
import { isObject } from '../keys';
import { stampedRow } from '../markers/stamp';
import { common, rowsOf, statistic, type Zod } from './define';

const rowsSource = [{ key: 'dataset_id', as: 'rows', describe: 'the rows (a dataset or run id, or a JSONL file)' }] as const;

/** The row fields a task key and a pass label read (every report here groups or correlates by them). */
const KEYED = ['scenario_id', 'task_id', 'prompt', 'reward', 'qwen_reward'] as const;
/** The fields the agent's words are read from: the reply, the messages, and the conversation rebuilt from steps. */
const SPOKEN = ['final_text', 'messages', 'steps', 'opener'] as const;

const interval = (z: Zod) => common(z).interval();
const phraseCounts = (z: Zod) => z.array(z.tuple([z.string(), z.number().int()]));

export const styleReportStatistic = statistic({
  name: 'style_report',
  method: 'stats.styleReport',
  command: 'style',
  summary: 'Boilerplate, hedging, apology, sycophancy and refusal phrases: clean share, hits, and whether the reward pays for them (sdk §7.1)',
  sources: rowsSource,
  positional: ['rows', 'phrases', 'threshold', 'n_boot', 'seed'],
  // Row fields read: the agent's words, the markers a row already carries, the task key and the pass label.
  reads: [...KEYED, ...SPOKEN, 'markers'],
  flags: { phrases: 'json' },
  schemas: (z) => {
    const c = common(z);
    const entry = z.looseObject({
      clean: z.number().nullable(), ci95: interval(z), hits: z.number().int(), top_phrases: phraseCounts(z),
      reward_corr: z.number().nullable(), degenerate: z.boolean(), flagged: z.literal(true).optional(),
    });
    return {
      params: z.object({
        phrases: z.record(z.string(), z.array(z.string())).nullable().optional(),
        threshold: z.number().optional(),
        n_boot: c.atLeast(1).optional(),
        seed: c.seed().optional(),
      }),
      output: z.object({
        report: z.looseObject({
          n: z.number().int(), n_graded: z.number().int(), threshold: z.number(), markers: z.record(z.string(), entry),
          warnings: z.array(z.string()), notes: z.array(z.string()), not_stamped: z.record(z.string(), z.array(z.string())),
        }),
      }),
    };
  },
  compute: (input) => ({ report: styleReport(rowsOf(input, 'rows'), input.params) }),
});

export const refusalReportStatistic = statistic({
  name: 'refusal_report',
  method: 'stats.refusalReport',
  command: 'refusal',
  summary: 'Over-refusal on a benign set: the share refused, with a Wilson interval, the phrases and examples (sdk §7.1)',
  sources: rowsSource,
  positional: ['rows', 'phrases', 'examples'],
  // Row fields read: the agent's words and the prompt (for the examples).
  reads: ['prompt', ...SPOKEN],
  schemas: (z) => ({
    params: z.object({ phrases: z.array(z.string()).nullable().optional(), examples: common(z).atLeast(0).optional() }),
    output: z.object({
      report: z.looseObject({
        n: z.number().int(), n_refused: z.number().int(), refusal_rate: z.number().nullable(), ci95: interval(z), top_phrases: phraseCounts(z),
        examples: z.array(z.looseObject({ prompt: z.string(), reply: z.string(), phrases: z.array(z.string()) })),
      }),
    }),
  }),
  compute: (input) => ({ report: refusalReport(rowsOf(input, 'rows'), input.params) }),
});

export const traceFlagReportStatistic = statistic({
  name: 'trace_flag_report',
  method: 'stats.traceFlagReport',
  command: 'trace-flags',
  summary: 'Did the agent fake the work: each trace flag\'s rate, evidence and reward correlation, and the trace markers (sdk §7.2)',
  sources: rowsSource,
  positional: ['rows', 'kinds', 'threshold', 'n_boot', 'seed', 'examples'],
  // Row fields read: the calls (steps, a platform tool_trace, messages), the reply, markers, task key and pass label.
  reads: [...KEYED, 'final_text', 'steps', 'tool_trace', 'messages', 'markers'],
  flags: { kinds: 'json' },
  schemas: (z) => {
    const c = common(z);
    const flag = z.looseObject({
      n: z.number().int(), rate: z.number().nullable(), reward_corr: z.number().nullable(),
      examples: z.array(z.looseObject({ prompt: z.string(), evidence: z.string() })), flagged: z.literal(true).optional(),
    });
    return {
      params: z.object({
        kinds: z.record(z.string(), z.string()).nullable().optional(),
        threshold: z.number().optional(),
        n_boot: c.atLeast(1).optional(),
        seed: c.seed().optional(),
        examples: c.atLeast(0).optional(),
      }),
      output: z.object({
        report: z.looseObject({
          n: z.number().int(), n_graded: z.number().int(), threshold: z.number(), flags: z.record(z.string(), flag),
          markers: z.record(z.string(), z.looseObject({ clean: z.number().nullable(), ci95: interval(z) })), warnings: z.array(z.string()),
        }),
      }),
    };
  },
  compute: (input) => ({ report: traceFlagReport(rowsOf(input, 'rows'), input.params) }),
});

export const groundingReportStatistic = statistic({
  name: 'grounding_report',
  method: 'stats.groundingReport',
  command: 'grounding',
  summary: 'Argument grounding: the share of rollouts whose every tool argument came from the conversation, and the invented values (sdk §7.3)',
  sources: rowsSource,
  positional: ['rows'],
  // Row fields read: the calls (steps, tool_trace, messages, blocks in final_text) and their context (prompt, system_prompt).
  reads: ['prompt', 'system_prompt', 'steps', 'tool_trace', 'messages', 'final_text'],
  schemas: (z) => ({
    params: z.object({
      ignore_keys: z.array(z.string()).optional(),
      allow: z.array(z.union([z.string(), z.number(), z.boolean()])).optional(),
      min_len: common(z).atLeast(0).optional(),
    }),
    output: z.object({
      report: z.looseObject({
        rows: z.number().int(), grounded_rate: z.number().nullable(), rows_with_calls: z.number().int(),
        invented: z.array(z.looseObject({ argument: z.string(), rows: z.number().int(), example: z.string() })),
      }),
    }),
  }),
  compute: (input) => ({ report: groundingReport(rowsOf(input, 'rows'), input.params) }),
});

export const markerSummaryStatistic = statistic({
  name: 'marker_summary',
  method: 'stats.markerSummary',
  command: 'marker-summary',
  summary: 'Every marker on the rows: its mean over tasks with a task-bootstrap interval, and the rows at 1 and at 0',
  sources: rowsSource,
  positional: ['rows'],
  // Row fields read: the markers and the task key, and with `stamp` what the stamp reads (the reply, the calls, their context).
  reads: ['scenario_id', 'task_id', 'prompt', 'markers', 'trace_flags', 'system_prompt', 'steps', 'tool_trace', 'messages', 'final_text', 'opener'],
  schemas: (z) => {
    const c = common(z);
    return {
      // stamp (an app option, not an SDK argument): summarise the rows as `while-desk markers` stamps them (docs/markers.md).
      params: z.object({ names: z.array(z.string()).nullable().optional(), n_boot: c.atLeast(1).optional(), seed: c.seed().optional(), stamp: z.boolean().optional() }),
      output: z.object({ report: markerSummaryReport(z) }),
    };
  },
  compute: (input) => {
    const { stamp, ...params } = input.params;
    const rows = rowsOf(input, 'rows');
    return { report: Object.fromEntries(markerSummary(stamp ? rows.map((row) => (isObject(row) ? stampedRow(row) : row)) : rows, params)) };
  },
});

/** marker_summary's report: marker name -> its summary. */
export function markerSummaryReport(z: Zod) {
  return z.record(
    z.string(),
    z.looseObject({
      metric: z.string(), n_tasks: z.number().int(), n_rows: z.number().int(), n_rows_at_1: z.number().int(), n_rows_at_0: z.number().int(),
      mean: z.number().nullable(), ci95: interval(z), degenerate: z.boolean(), warning: z.string().optional(), note: z.string().optional(),
    }),
  );
}
