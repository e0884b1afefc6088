// The system prompt and tool schemas an export takes when the settings leave them out: the run's own, found by
// following a graded copy up to the run it came from, when every task of the run shares one. The SDK takes them from
// a SimulationData's profile; a dataset here is rows, and its run is what knows them.
import { findDataset } from '../db/repos/datasets';
import { getRun } from '../db/repos/runs';
import type { Db } from '../db/connection';

type Obj = Record<string, unknown>;

export interface RunDefaults {
  system_prompt: string | null;
  tools: Obj[] | null;
  from_run: string | null;
  note: string | null;
}

export function runDefaults(db: Db, datasetId: string): RunDefaults {
  let id: string | null = datasetId;
  for (let hops = 0; id && hops < 10; hops++) {
    const dataset = findDataset(db, id);
    if (!dataset) break;
    if (dataset.kind === 'run') {
      const run = getRun(db, id);
      if (!run) break;
      const tasks = run.tasks;
      const prompts = new Set(tasks.map((t) => t.system_prompt ?? ''));
      const tools = new Set(tasks.map((t) => JSON.stringify(t.tools ?? [])));
      const system = prompts.size === 1 ? [...prompts][0] : null;
      const toolList = tools.size === 1 ? (JSON.parse([...tools][0]) as Obj[]) : null;
      const notes: string[] = [];
      if (prompts.size > 1) notes.push(`the run's ${tasks.length} tasks have ${prompts.size} different system prompts, so none is prepended; give one`);
      if (tools.size > 1) notes.push(`its tasks declare ${tools.size} different tool sets, so none is attached; give them`);
      return { system_prompt: system, tools: toolList, from_run: id, note: notes.length ? notes.join('; ') : null };
    }
    id = dataset.parent_id;
  }
  return { system_prompt: null, tools: null, from_run: null, note: null };
}
