// Import a JSONL file by picker or drag and drop: progress, then the verdict and the per-line errors.
import { useRef, useState, type DragEvent } from 'react';
import { formatBytes, formatCount } from '../../components/format';
import { ProgressBar } from '../../components/progress-bar';
import { hrefFor } from '../../store/route-store';
import { useImport, type ImportState } from '../../store/import-store';
import { canPickPaths, pickFile } from '../../api/files';

const SHOWN_ERRORS = 200;

function ErrorList({ errors }: { errors: Array<{ line: number; message: string }> }) {
  if (errors.length === 0) return null;
  return (
    <div className="import-errors">
      <table className="plain" aria-label="Bad lines">
        <thead>
          <tr>
            <th className="num">Line</th>
            <th>What was wrong</th>
          </tr>
        </thead>
        <tbody>
          {errors.slice(0, SHOWN_ERRORS).map((error) => (
            <tr key={error.line}>
              <td className="num">{error.line}</td>
              <td>{error.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {errors.length > SHOWN_ERRORS && <p className="muted">and {formatCount(errors.length - SHOWN_ERRORS)} more bad lines</p>}
    </div>
  );
}

function Outcome({ state }: { state: ImportState }) {
  const cancel = useImport((s) => s.cancel);
  const dismiss = useImport((s) => s.dismiss);
  if (state.phase === 'idle') return null;
  if (state.phase === 'running') {
    const p = state.progress;
    return (
      <div className="import-outcome" aria-live="polite">
        <div className="row-between">
          <span>
            Importing <strong>{state.fileName}</strong>: {formatBytes(p.bytesSent)} of {formatBytes(p.bytesTotal)}, {formatCount(p.linesRead)} lines
            read, {formatCount(p.errors)} bad
          </span>
          <button type="button" onClick={cancel}>Cancel</button>
        </div>
        <ProgressBar value={p.bytesTotal ? p.bytesSent / p.bytesTotal : 1} label="Import progress" />
      </div>
    );
  }
  if (state.phase === 'failed') {
    return (
      <div className="import-outcome error" role="alert">
        <div className="row-between">
          <span>
            Import of <strong>{state.fileName}</strong> failed: {state.message}. Nothing was imported.
          </span>
          <button type="button" onClick={dismiss}>Dismiss</button>
        </div>
      </div>
    );
  }
  const { result } = state;
  const refused = result.dataset_id === null;
  return (
    <div className={`import-outcome ${refused ? 'error' : 'ok'}`} role={refused ? 'alert' : 'status'} data-testid="import-outcome">
      <div className="row-between">
        {refused ? (
          <span>
            <strong>{state.fileName}</strong> was refused: {formatCount(result.errors.length)} bad line{result.errors.length === 1 ? '' : 's'}.{' '}
            <strong>Nothing was imported.</strong> Fix the lines below, or tick "Skip invalid lines" to import the good ones.
          </span>
        ) : (
          <span>
            Imported {formatCount(result.rows_imported)} rows from <strong>{state.fileName}</strong>
            {result.rows_skipped > 0 ? `, skipped ${formatCount(result.rows_skipped)} bad lines` : ''}.{' '}
            <a href={hrefFor({ page: 'dataset', id: result.dataset_id! })}>Open it</a>
          </span>
        )}
        <button type="button" onClick={dismiss}>Dismiss</button>
      </div>
      <ErrorList errors={result.errors} />
    </div>
  );
}

export function ImportPanel() {
  const state = useImport((s) => s.state);
  const skipInvalid = useImport((s) => s.skipInvalid);
  const setSkipInvalid = useImport((s) => s.setSkipInvalid);
  const start = useImport((s) => s.start);
  const startPath = useImport((s) => s.startPath);
  const [name, setName] = useState('');
  const [dragging, setDragging] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const busy = state.phase === 'running';

  const take = (files: FileList | null) => {
    const file = files?.[0];
    if (!file || busy) return;
    void start(file, name);
    setName('');
    if (input.current) input.current.value = '';
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    take(event.dataTransfer.files);
  };

  return (
    <section className="import-panel" aria-label="Import">
      <div
        className={`dropzone${dragging ? ' dragging' : ''}`}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <span>Drop a JSONL file of rows here, or</span>
        <button
          type="button"
          disabled={busy}
          onClick={() => {
            // The desktop app picks a path in the native dialog and the engine reads the file (the CLI's route);
            // a browser has no paths, so it streams the file's bytes through the same parser.
            if (!canPickPaths()) return input.current?.click();
            void pickFile('rows').then((picked) => {
              if (picked) void startPath(picked, name).then(() => setName(''));
            });
          }}
        >
          Choose a file…
        </button>
        <input ref={input} type="file" accept=".jsonl,.ndjson,.json,.txt" hidden data-testid="import-file" onChange={(event) => take(event.target.files)} />
        <label className="field">
          Name
          <input type="text" value={name} placeholder="the file name" onChange={(event) => setName(event.target.value)} disabled={busy} />
        </label>
        <label className="check">
          <input type="checkbox" checked={skipInvalid} onChange={(event) => setSkipInvalid(event.target.checked)} disabled={busy} />
          Skip invalid lines
        </label>
      </div>
      <Outcome state={state} />
    </section>
  );
}
