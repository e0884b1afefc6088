// The first pass of a training export: which rows go out, in which order, and the group fields they carry. It reads
// each row once (on the export threads too, when there are) and keeps only what the stages need (row-facts.ts: an
// eval-overlap projection, the selectors' facts, a task key and reward), never the rows, so 100k rows select in a few
// tens of megabytes. Stages: decontaminate against the chosen eval datasets, then a min_reward filter or an SDK
// selector (select_for_sft / select_for_rl).
import type { TrainingSettings, TrainingStage } from '../../shared/api/training';
import { parsePyJson } from '../../shared/schema/py-json';
import { decontaminate } from '../../shared/stats/decontaminate';
import { entryTaskKey, GroupTally, rlDetails, selectForRl, selectForSft, SFT_MIN_REWARD_DEFAULT, type RlDetails, type RlFacts, type SftFacts } from '../../shared/training/index';
import './native-digest';
import type { Db } from '../db/connection';
import { pageRows, pageStatements } from './convert-page';
import type { ExportPool } from './export-pool';
import { factsPage, type FactsOptions, type RowFacts } from './row-facts';
import { PAGE } from './write-pass';

type Obj = Record<string, unknown>;

export interface SelectionPlan {
  /** Ordinals to export, in export order (stored order unless a selector reordered them). */
  ordinals: number[];
  /** Group fields for the exported rows (null with unroll). */
  tally: GroupTally | null;
  stages: TrainingStage[];
  rowsIn: number;
  contaminated: number;
  belowMinReward: number;
  droppedByRule: Record<string, number>;
  selection: Obj | null;
  decontamination: Obj | null;
}

export interface PassHooks {
  onRows?: (done: number) => void;
  /** Called between pages: yield to the event loop, check for cancel. */
  between?: () => Promise<void>;
}

/**
 * One copy of each repeated text the selectors keep: the k rollouts of a task repeat its prompt, its lowered form and
 * its scenario id, and 100k rows' facts held each a copy of its own (most of what the pass kept).
 */
class Interner {
  private readonly pool = new Map<string, string>();

  get<T>(value: T): T {
    if (typeof value !== 'string') return value;
    const hit = this.pool.get(value);
    if (hit !== undefined) return hit as T;
    this.pool.set(value, value);
    return value;
  }
}

/** The eval side of decontaminate: what its rules read of each eval row. */
export function evalProjection(db: Db, datasetId: string): Obj[] {
  const out: Obj[] = [];
  const stmt = db.prepare(
    "SELECT json_extract(row_json, '$.scenario_id') AS scenario_id, json_extract(row_json, '$.task_id') AS task_id, json_extract(row_json, '$.prompt') AS prompt, json_extract(row_json, '$.answer') AS answer, json_extract(row_json, '$.reference') AS reference FROM rows WHERE dataset_id = ? ORDER BY ordinal",
  );
  for (const row of stmt.iterate(datasetId) as Iterable<Obj>) out.push(row);
  return out;
}

interface Kept {
  ordinal: number;
  task: string;
  reward: unknown;
  /** Below min_reward (select "all" only). */
  below: boolean;
}

function stage(name: TrainingStage['stage'], rowsIn: number, rowsOut: number, report: Obj | null): TrainingStage {
  return { stage: name, rows_in: rowsIn, rows_out: rowsOut, report };
}

/** Counts by rule out of a selector's report: what each gate and trim dropped, under the SDK's names. */
function droppedByRule(report: Obj): Record<string, number> {
  const out: Record<string, number> = {};
  const put = (key: string, value: unknown) => {
    if (typeof value === 'number' && value > 0) out[key] = value;
  };
  put('privileged_leaks_dropped', report.privileged_leaks_dropped);
  put('n_not_pass', report.n_not_pass);
  put('n_junk', report.n_junk);
  for (const [key, value] of Object.entries((report.gates ?? {}) as Record<string, unknown>)) put(key, value);
  put('duplicates', (report.duplicates as Obj | undefined)?.n_dropped);
  put('truncated_dropped', report.truncated_dropped);
  put('unanimous_groups_dropped', report.unanimous_groups_dropped);
  put('band_groups_dropped', report.band_groups_dropped);
  return out;
}

/**
 * The plan when every row is exported in stored order (select "all", no eval to decontaminate against, no
 * min_reward): the group tally needs only each row's task and reward, and the indexed columns hold them (scenario_id
 * as its text, reward when it is a number). A row whose scenario_id could mean something else to Python's `or` (none,
 * empty, "0", "true", "false": a number 0 or a boolean would be falsy or print otherwise) is read whole.
 */
function storedOrderPlan(reader: Db, datasetId: string, unroll: boolean): SelectionPlan {
  const ordinals: number[] = [];
  const tally = unroll ? null : new GroupTally();
  const stmt = reader.prepare(
    `SELECT ordinal, scenario_id, reward,
            CASE WHEN scenario_id IS NULL OR scenario_id IN ('', '0', 'true', 'false') THEN row_json END AS careful
       FROM rows WHERE dataset_id = ? ORDER BY ordinal`,
  ).raw();
  for (const [ordinal, sid, reward, careful] of stmt.iterate(datasetId) as Iterable<[number, string | null, number | null, string | null]>) {
    ordinals.push(ordinal);
    if (!tally) continue;
    if (careful === null) tally.add(sid as string, reward);
    else {
      const row = parsePyJson(careful) as Obj;
      tally.add(entryTaskKey(row), row.reward);
    }
  }
  return {
    ordinals,
    tally,
    stages: [stage('read', ordinals.length, ordinals.length, null)],
    rowsIn: ordinals.length,
    contaminated: 0,
    belowMinReward: 0,
    droppedByRule: {},
    selection: null,
    decontamination: null,
  };
}

/** Every row's facts, in stored order: page by page here, or shared with the export threads. */
async function gatherFacts(reader: Db, datasetId: string, options: FactsOptions, pool: ExportPool | null, hooks: PassHooks, keep: (facts: RowFacts) => void): Promise<void> {
  const ordinals = Float64Array.from(reader.prepare('SELECT ordinal FROM rows WHERE dataset_id = ? ORDER BY ordinal').pluck().all(datasetId) as number[]);
  const statements = pageStatements(reader);
  const pages = Math.ceil(ordinals.length / PAGE);
  const here = (seq: number) => factsPage(statements, datasetId, ordinals.subarray(seq * PAGE, (seq + 1) * PAGE), seq * PAGE, options);
  let done = 0;
  const take = async (_seq: number, page: RowFacts[]) => {
    for (const facts of page) keep(facts);
    done += page.length;
    hooks.onRows?.(done);
    await hooks.between?.();
  };
  if (!pool) {
    for (let seq = 0; seq < pages; seq++) await take(seq, here(seq));
    return;
  }
  await pool.inPageOrder<RowFacts[]>({ kind: 'facts', datasetId, ordinals, pageRows: PAGE, options }, pages, here, take);
  pool.rest();
}

/**
 * select_for_rl's details of the rows it selected (rowFacts computes RlFacts under the "drop" policy), read again by
 * ordinal, a page at a time: a few rows of the many whose facts the pass kept.
 */
function rlDetailsReader(reader: Db, datasetId: string, kept: readonly Kept[]): (selected: readonly RlFacts[]) => RlDetails[] {
  return (selected) => {
    const statements = pageStatements(reader);
    const out: RlDetails[] = [];
    for (let at = 0; at < selected.length; at += PAGE) {
      const ordinals = selected.slice(at, at + PAGE).map((f) => kept[f.index].ordinal);
      for (const json of pageRows(statements, datasetId, ordinals)) out.push(rlDetails(parsePyJson(json) as Obj, 'drop'));
    }
    return out;
  };
}

export async function planSelection(reader: Db, datasetId: string, settings: TrainingSettings, evalRows: Obj[] | null, hooks: PassHooks = {}, pool: ExportPool | null = null): Promise<SelectionPlan> {
  const sft = settings.select !== 'all' && settings.select !== 'rl';
  const rl = settings.select === 'rl';
  if (!sft && !rl && !evalRows && settings.min_reward === null) return storedOrderPlan(reader, datasetId, settings.unroll);
  const projections: Obj[] = [];
  const kept: Kept[] = [];
  const sftAll: SftFacts[] = [];
  const rlAll: RlFacts[] = [];
  const texts = new Interner();
  const options: FactsOptions = { sft, rl, projection: evalRows !== null, minReward: settings.min_reward, sftMinReward: settings.min_reward ?? SFT_MIN_REWARD_DEFAULT };
  await gatherFacts(reader, datasetId, options, pool, hooks, (facts) => {
    if (facts.projection) projections.push({ prompt: texts.get(facts.projection.prompt), scenario_id: texts.get(facts.projection.scenario_id), task_id: texts.get(facts.projection.task_id) });
    kept.push({ ordinal: facts.ordinal, task: texts.get(facts.task), reward: facts.reward, below: facts.below });
    if (facts.sft) {
      facts.sft.prompt = texts.get(facts.sft.prompt);
      facts.sft.promptKey = texts.get(facts.sft.promptKey);
      facts.sft.scenarioId = texts.get(facts.sft.scenarioId);
      sftAll.push(facts.sft);
    }
    if (facts.rl) {
      facts.rl.prompt = texts.get(facts.rl.prompt);
      facts.rl.task = texts.get(facts.rl.task);
      facts.rl.scenarioId = texts.get(facts.rl.scenarioId);
      facts.rl.fault = texts.get(facts.rl.fault);
      rlAll.push(facts.rl);
    }
  });
  const rowsIn = kept.length;
  const stages: TrainingStage[] = [stage('read', rowsIn, rowsIn, null)];
  let alive = kept.map((_, i) => i);
  let contaminated = 0;
  let decontamination: Obj | null = null;
  if (evalRows) {
    const result = decontaminate(projections, [evalRows]);
    decontamination = result.report as unknown as Obj;
    contaminated = result.report.n_contaminated;
    alive = result.kept_indices;
    stages.push(stage('decontaminate', rowsIn, alive.length, decontamination));
  }
  let belowMinReward = 0;
  let selection: Obj | null = null;
  let rules: Record<string, number> = {};
  if (!sft && !rl) {
    if (settings.min_reward !== null) {
      const before = alive.length;
      alive = alive.filter((i) => !kept[i].below);
      belowMinReward = before - alive.length;
      stages.push(stage('min_reward', before, alive.length, { min_reward: settings.min_reward, n_dropped: belowMinReward }));
    }
  } else {
    const before = alive.length;
    if (sft) {
      const facts = alive.map((i) => sftAll[i]);
      const out = selectForSft(facts, facts.length, {
        target: settings.target ?? undefined,
        select: settings.select,
        k: settings.k,
        min_reward: settings.min_reward ?? undefined,
        seed: settings.seed,
      });
      selection = out.report;
      alive = out.selected;
    } else {
      const facts = alive.map((i) => rlAll[i]);
      const out = selectForRl(facts, rlDetailsReader(reader, datasetId, kept), { target: settings.target ?? undefined, lo: settings.band[0], hi: settings.band[1] }, facts.length);
      selection = out.report;
      alive = out.selected;
    }
    rules = droppedByRule(selection);
    stages.push(stage('select', before, alive.length, selection));
  }
  const tally = settings.unroll ? null : new GroupTally();
  for (const i of alive) tally?.add(kept[i].task, kept[i].reward);
  return {
    ordinals: alive.map((i) => kept[i].ordinal),
    tally,
    stages,
    rowsIn,
    contaminated,
    belowMinReward,
    droppedByRule: rules,
    selection,
    decontamination,
  };
}
