// The labeling desk, `#/label/<dataset_id>`: keyboard first (see cheatsheet.tsx), the queue beside the live judge
// trust. Without an id it lists the datasets to pick from.
import { useEffect, useRef, useState } from 'react';
import { typingIn } from '../../components/format';
import { hrefFor } from '../../store/route-store';
import { useDatasets } from '../../store/datasets-store';
import { AnnotatorPrompt } from './annotator-prompt';
import { Cheatsheet } from './cheatsheet';
import { cachedRow, useLabel } from './label-store';
import { LabelRow } from './label-row';
import { QueueControls } from './queue-controls';
import { TrustPanel } from './trust-panel';
import './label.css';

function NoteField({ onDone }: { onDone: () => void }) {
  const [text, setText] = useState('');
  const note = useLabel((s) => s.note);
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => field.current?.focus(), []);
  return (
    <form
      className="note-field"
      aria-label="Note"
      onSubmit={(event) => {
        event.preventDefault();
        note(text);
        onDone();
      }}
    >
      <label htmlFor="label-note">Note on your label</label>
      <input id="label-note" data-testid="label-note" ref={field} value={text} maxLength={10_000} onChange={(event) => setText(event.target.value)} onKeyDown={(event) => event.key === 'Escape' && onDone()} />
    </form>
  );
}

function PickDataset() {
  const { datasets, loaded, refresh } = useDatasets();
  useEffect(() => void refresh(), [refresh]);
  return (
    <section className="page">
      <header className="page-head"><h1>Label</h1></header>
      <p>Pick a dataset or run to label; its rows come in a queue, judge-pass and judge-fail rows in turn.</p>
      {loaded && datasets.length === 0 && <p className="muted">No datasets yet: import one under Runs and datasets.</p>}
      <ul className="plain-list">
        {datasets.map((d) => (
          <li key={d.id}><a href={hrefFor({ section: 'label', id: d.id })}>{d.name}</a> <span className="muted">{d.rows} rows · {d.id}</span></li>
        ))}
      </ul>
    </section>
  );
}

function useDeskKeys(noteOpen: boolean, setNoteOpen: (open: boolean) => void, setVerdict: (f: (v: boolean) => boolean) => void, setSheet: (f: (v: boolean) => boolean) => void) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setSheet(() => false);
        return;
      }
      if (noteOpen || typingIn(event.target) || event.ctrlKey || event.metaKey || event.altKey) return;
      const s = useLabel.getState();
      switch (event.key) {
        case '1': case 'p': s.label(1); break;
        case '0': case 'f': s.label(0); break;
        case 's': s.move(1); break;
        case 'u': s.undo(); break;
        case 'n': setNoteOpen(true); break;
        case 'j': case 'ArrowDown': case 'ArrowRight': s.move(1); break;
        case 'k': case 'ArrowUp': case 'ArrowLeft': s.move(-1); break;
        case 'v': setVerdict((v) => !v); break;
        case '?': setSheet((v) => !v); break;
        default: return;
      }
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [noteOpen, setNoteOpen, setVerdict, setSheet]);
}

export function LabelPage({ id }: { id: string | null }) {
  const annotator = useLabel((s) => s.annotator);
  const [naming, setNaming] = useState(() => !useLabel.getState().annotator);
  const open = useLabel((s) => s.open);
  const setAnnotator = useLabel((s) => s.setAnnotator);
  const item = useLabel((s) => s.items[s.index]);
  const index = useLabel((s) => s.index);
  const total = useLabel((s) => s.total);
  const loading = useLabel((s) => s.loading);
  const error = useLabel((s) => s.error);
  const clearError = useLabel((s) => s.clearError);
  useLabel((s) => s.rowsVersion);
  const [verdict, setVerdict] = useState(false);
  const [sheet, setSheet] = useState(false);
  const [noteOpen, setNoteOpen] = useState(false);
  const desk = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (id && !naming) open(id);
    else if (id) useLabel.getState().warm(id);
  }, [id, naming, open]);
  // The verdict stays hidden on each new row until asked for again.
  useEffect(() => setVerdict(false), [item?.row_key]);
  useDeskKeys(noteOpen || naming, setNoteOpen, setVerdict, setSheet);
  useEffect(() => {
    if (!naming && !noteOpen) desk.current?.focus();
  }, [naming, noteOpen]);

  if (!id) return <PickDataset />;
  if (naming) {
    return (
      <section className="page label-page">
        <header className="page-head"><h1>Label <span className="mono muted">{id}</span></h1></header>
        <AnnotatorPrompt initial={annotator} onDone={(name) => { setAnnotator(name); setNaming(false); }} />
      </section>
    );
  }
  return (
    <section className="page label-page">
      <header className="page-head">
        <div>
          <a className="crumb" href={hrefFor({ page: 'dataset', id })}>Dataset {id}</a>
          <h1>Label</h1>
        </div>
        <div className="buttons">
          <span className="muted">Labeling as <strong data-testid="annotator">{annotator}</strong></span>
          <button type="button" onClick={() => setNaming(true)}>Change name</button>
          <button type="button" onClick={() => setSheet(true)} aria-keyshortcuts="?">Keys (?)</button>
        </div>
      </header>
      <QueueControls />
      {error && (
        <p className="error-text" role="alert" data-testid="label-error">
          {error} <button type="button" className="link" onClick={clearError}>Dismiss</button>
        </p>
      )}
      <div className="label-split">
        <div className="label-desk" ref={desk} tabIndex={-1} role="application" aria-roledescription="labeling desk" aria-label="Row to label: 1 pass, 0 fail, s skip, u undo, ? keys">
          {loading && <p className="muted">Loading the queue…</p>}
          {!loading && total === 0 && <p className="muted" data-testid="queue-empty">No rows in this queue.</p>}
          {item && <LabelRow item={item} row={cachedRow(item.ordinal)} position={index} total={total} verdictShown={verdict} />}
          {noteOpen && <NoteField onDone={() => setNoteOpen(false)} />}
          {item && (
            <div className="label-buttons" role="group" aria-label="Label this row">
              <button type="button" onClick={() => useLabel.getState().label(1)} aria-keyshortcuts="1 p">Pass (1)</button>
              <button type="button" onClick={() => useLabel.getState().label(0)} aria-keyshortcuts="0 f">Fail (0)</button>
              <button type="button" onClick={() => useLabel.getState().move(1)} aria-keyshortcuts="s">Skip (s)</button>
              <button type="button" onClick={() => useLabel.getState().undo()} aria-keyshortcuts="u">Undo (u)</button>
              <button type="button" onClick={() => setVerdict((v) => !v)} aria-keyshortcuts="v" aria-pressed={verdict}>Judge verdict (v)</button>
            </div>
          )}
        </div>
        <TrustPanel datasetId={id} />
      </div>
      {sheet && <Cheatsheet onClose={() => setSheet(false)} />}
    </section>
  );
}
