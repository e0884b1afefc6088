// The task file of a new run or sweep: the native file dialog in the desktop app (a path), an upload in a browser
// under `serve` (the file itself). The field's id is also its test hook.
import { PathField } from './judge-fields';

export function TaskFileField(props: {
  id: string;
  /** The desktop app: files are picked by path. */
  pickPaths: boolean;
  path: string;
  onPath: (path: string) => void;
  onFile: (file: File | null) => void;
}) {
  if (props.pickPaths) return <PathField id={props.id} label="Task file" kind="tasks" value={props.path} onChange={props.onPath} placeholder="" />;
  return (
    <>
      <label htmlFor={props.id}>Task file</label>
      <input id={props.id} type="file" accept=".jsonl,.ndjson,.json" data-testid={props.id} onChange={(event) => props.onFile(event.target.files?.[0] ?? null)} />
    </>
  );
}
