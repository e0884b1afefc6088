// export_dataset / export_training, row by row (sdk-semantics §8.3): each source row becomes its training rows (group
// fields from a first pass, then the TRL reshape), the gates check it, and the report is counted as rows go by, so
// a caller can stream 100k rows to disk and hold none of them. The in-memory export (export-dataset.ts) is this too.
import { numericReward, PASS_THRESHOLD, type GroupLookup } from './groups';
import { LeakTally, type LeakState } from './privileged';
import { RoundtripCheck, rowTurns, type RoundtripReport, type RoundtripState } from './roundtrip';
import { TrainingValueError, type ExportSettings } from './export-settings';
import { entryTaskKey, trainingEntries, type TrainingEntry } from './training-row';
import { trlCompletionRow, trlTrainingRow } from './trl';

type Obj = Record<string, unknown>;

export const TRL_MASK_EVERY_TOKEN =
  'TRL trains on every token of every turn (trl 0.19.1 SFTTrainer reads no per-message mask); set assistant_only_loss=True in SFTConfig to train the assistant turns only, which needs a chat template with a {% generation %} block (Qwen2.5-Instruct has none)';
export const TRL_MASK_COMPLETION =
  'TRL trains on the last assistant turn only: prompt/completion rows, from which trl 0.19.1 SFTTrainer builds completion_mask (completion_only_loss defaults on)';

export interface ExportReport {
  n: number;
  format: string;
  with_system: number;
  with_tools: number;
  groups: number;
  tool_call_roundtrip: RoundtripReport;
  mask_mode: string;
  unrolled: boolean;
  max_tool_output_chars: number | null;
  tool_output_truncated: number;
  tool_output_chars_cut: number;
  trained_messages: number;
  masked_messages: number;
  privileged_leaks: ReturnType<LeakTally['exportBlock']>;
  rewards: { n_pass: number; n_fail: number; n_ungraded: number };
  no_completion_dropped?: number;
  warnings?: string[];
  path?: string;
  n_written?: number;
}

/** An exporter's counts as plain data: what a page converted on another thread hands back to be merged in order. */
export interface ExporterState {
  counts: number[];
  roundtrip: RoundtripState;
  leaks: LeakState;
  groupIds: string[];
}

const COUNTERS = ['n', 'withSystem', 'withTools', 'truncated', 'charsCut', 'trained', 'masked', 'pass', 'fail', 'built', 'cutByCap'] as const;

export class TrainingExporter {
  private readonly roundtrip: RoundtripCheck;
  private readonly leaks = new LeakTally();
  private readonly groupIds = new Set<string>();
  private readonly finalOnly: boolean;
  private n = 0;
  private withSystem = 0;
  private withTools = 0;
  private truncated = 0;
  private charsCut = 0;
  private trained = 0;
  private masked = 0;
  private pass = 0;
  private fail = 0;
  private built = 0;
  private cutByCap = 0;

  constructor(private readonly settings: ExportSettings, private readonly groups: GroupLookup | null) {
    this.roundtrip = new RoundtripCheck(settings.format);
    this.finalOnly = settings.unroll || settings.mask_mode === 'final';
  }

  /** The rows one source row exports to (none, for a TRL completion row with no assistant turn). Throws on a gate under validate. */
  add(row: Obj): Obj[] {
    const leak = this.leaks.add(row);
    if (leak && this.settings.validate) {
      throw new TrainingValueError(
        `privileged_leak: a row quotes its own privileged context (${leak.field}: "${leak.needle}") in an assistant turn; the export scrubs the key, not the reply, so training on it teaches the model to say what only the grader was told. Drop that row or pass validate=False.`,
      );
    }
    if (row.finish_reason === 'length') this.cutByCap++;
    const entries = trainingEntries(row, {
      systemPrompt: this.settings.system_prompt,
      tools: this.settings.tools,
      stripThink: this.settings.strip_think,
      maskMode: this.settings.mask_mode,
      unroll: this.settings.unroll,
      maxToolOutputChars: this.settings.max_tool_output_chars,
    });
    const out: Obj[] = [];
    for (const entry of entries) {
      // training_rows checks every row it builds (check(kind="training")), whatever `validate` says.
      if (!entry.messages.length) {
        throw new TrainingValueError(`schema_invalid in training_rows: ${this.built}:messages_missing (the row has no prompt, steps, reply or messages, and no system prompt was given)`);
      }
      this.built++;
      this.stampGroup(entry, row);
      if (this.settings.format === 'openai') {
        const ones = entry.loss_mask.reduce((a, b) => a + b, 0);
        this.trained += ones;
        this.masked += entry.loss_mask.length - ones;
      }
      const shaped = this.settings.format === 'trl' ? (this.finalOnly ? trlCompletionRow(entry) : trlTrainingRow(entry)) : entry;
      if (shaped) out.push(this.count(shaped));
    }
    return out;
  }

  private stampGroup(entry: TrainingEntry, row: Obj): void {
    if (this.settings.unroll || !this.groups) return;
    const fields = this.groups.fields(entryTaskKey(row));
    if (fields) Object.assign(entry, fields);
  }

  private count(shaped: Obj): Obj {
    const bad = this.roundtrip.add(rowTurns(shaped));
    if (bad && this.settings.validate) {
      const r = this.roundtrip.report();
      throw new TrainingValueError(
        `tool_call_roundtrip_invalid: ${bad} tool call(s) of exported row ${this.n} do not parse back to structured arguments (${r.encoding}); training on them teaches string-wrapped arguments. Fix the rows or pass validate=False.`,
      );
    }
    this.n++;
    const turns = rowTurns(shaped) as Obj[];
    if (turns.length && turns[0].role === 'system') this.withSystem++;
    if (Array.isArray(shaped.tools) && shaped.tools.length) this.withTools++;
    if (typeof shaped.group_id === 'string') this.groupIds.add(shaped.group_id);
    this.truncated += Number(shaped.tool_output_truncated ?? 0);
    this.charsCut += Number(shaped.tool_output_chars_cut ?? 0);
    if (this.settings.format === 'trl') {
      if (this.finalOnly) {
        this.trained += (shaped.completion as unknown[]).length;
        this.masked += (shaped.prompt as unknown[]).length;
      } else this.trained += (shaped.messages as unknown[]).length;
    }
    const reward = numericReward(shaped.reward);
    if (reward !== null) {
      if (reward < PASS_THRESHOLD) this.fail++;
      else this.pass++;
    }
    return shaped;
  }

  /** Rows written so far. */
  get written(): number {
    return this.n;
  }

  state(): ExporterState {
    return { counts: COUNTERS.map((key) => this[key]), roundtrip: this.roundtrip.state(), leaks: this.leaks.state(), groupIds: [...this.groupIds] };
  }

  /** Adds the counts of the rows that follow the ones counted here (pages merged in their order). */
  merge(other: ExporterState): void {
    COUNTERS.forEach((key, i) => {
      this[key] += other.counts[i];
    });
    this.roundtrip.merge(other.roundtrip);
    this.leaks.merge(other.leaks);
    for (const id of other.groupIds) this.groupIds.add(id);
  }

  report(): ExportReport {
    const s = this.settings;
    const maskLine = s.format === 'trl' ? (this.finalOnly ? TRL_MASK_COMPLETION : TRL_MASK_EVERY_TOKEN) : s.unroll ? 'final (unrolled)' : s.mask_mode;
    const leaks = this.leaks.exportBlock();
    const report: ExportReport = {
      n: this.n,
      format: s.format,
      with_system: this.withSystem,
      with_tools: this.withTools,
      groups: this.groupIds.size,
      tool_call_roundtrip: this.roundtrip.report(),
      mask_mode: maskLine,
      unrolled: s.unroll,
      max_tool_output_chars: s.max_tool_output_chars,
      tool_output_truncated: this.truncated,
      tool_output_chars_cut: this.charsCut,
      trained_messages: this.trained,
      masked_messages: this.masked,
      privileged_leaks: leaks,
      rewards: { n_pass: this.pass, n_fail: this.fail, n_ungraded: this.n - this.pass - this.fail },
    };
    const warnings: string[] = [];
    if (leaks.n_leaked) {
      warnings.push(`${leaks.n_leaked} of ${leaks.n_checked} rows quote their own privileged context in an assistant turn and are exported anyway (validate=False); report['privileged_leaks']['leaked'] names them.`);
    }
    if (this.cutByCap) {
      warnings.push(`${this.cutByCap} of ${this.leaks.nRows} rows were cut by the reply token cap (finish_reason 'length') and are exported as SFT targets; a model trained on them learns to stop mid-thought. Filter on finish_reason == 'stop'.`);
    }
    if (this.fail) {
      warnings.push(`${this.fail} of ${this.n} rows have reward below 0.5 and are exported as SFT targets; a model trained on them learns the failure. Select the passes (or filter on reward) unless that is intended.`);
    }
    const dropped = this.built - this.n;
    if (dropped) {
      report.no_completion_dropped = dropped;
      warnings.push(`${dropped} of ${this.built} rows have no assistant turn and were dropped: a TRL prompt/completion row needs a completion.`);
    }
    if (warnings.length) report.warnings = warnings;
    return report;
  }
}
