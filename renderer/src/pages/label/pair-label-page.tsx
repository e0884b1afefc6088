// The label desk's pair mode, `#/label/pairs/<A>/<B>`: one task's reply from A beside B's; `a`, `b` or `=` (a tie)
// stores the pick (pairs.label) and moves on; j/k move. Beside it, the pairwise agreement between people's picks
// and the latest `while-desk pairs A B` judge run (pairs.queue, from shared/judging/pair-agreement.ts).
import { useCallback, useEffect, useState } from 'react';
import type { PairsQueueOutput } from '../../../../shared/api/pairs';
import { desk, errorText } from '../../api/desk';
import { typingIn } from '../../components/format';
import { AnnotatorPrompt } from './annotator-prompt';
import { useLabel } from './label-store';
import './label.css';

type Pick = 'a' | 'b' | 'tie';
const KEY_PICK: Record<string, Pick> = { a: 'a', b: 'b', '=': 'tie' };
const pct = (x: number | null) => (x === null ? 'n/a' : `${(x * 100).toFixed(1)}%`);

function Agreement({ queue }: { queue: PairsQueueOutput }) {
  const r = queue.agreement;
  return (
    <aside className="trust-panel" data-testid="pair-agreement" data-agrees={r.agrees_with_human ?? ''} data-labeled={r.n_labeled} aria-label="Pairwise agreement">
      <h2>Judge against people</h2>
      <p className="muted">{queue.judge ? `judge ${queue.judge}` : 'no judge run yet: while-desk pairs A B --judge SPEC'}</p>
      <p>Picks on {r.n_labeled} pairs; the judge decided {r.n}.</p>
      <p>Agrees on the side: <strong data-testid="pair-agrees">{pct(r.agrees_with_human)}</strong> of {r.n_sides}{r.ci95 && ` (95% ${pct(r.ci95[0])} to ${pct(r.ci95[1])})`}</p>
      <p>Same answer, ties included: <span data-testid="pair-exact">{pct(r.exact_agreement)}</span>; your ties {r.human_ties}, judge also tie {r.ties_matched}</p>
      {r.warnings.map((w) => <p key={w} className="muted">{w}</p>)}
    </aside>
  );
}

export function PairLabelPage({ a, b }: { a: string; b: string }) {
  const annotator = useLabel((s) => s.annotator);
  const setAnnotator = useLabel((s) => s.setAnnotator);
  const [naming, setNaming] = useState(() => !useLabel.getState().annotator);
  const [queue, setQueue] = useState<PairsQueueOutput | null>(null);
  const [index, setIndex] = useState(0);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    const out = await desk.call('pairs.queue', { a, b, annotator });
    setQueue(out);
    return out;
  }, [a, b, annotator]);

  useEffect(() => {
    if (naming) return;
    load().then((out) => setIndex(Math.max(0, out.pairs.findIndex((p) => p.my_pick === null))), (e) => setError(errorText(e)));
  }, [naming, load]);

  useEffect(() => {
    if (naming || !queue) return;
    const onKey = (event: KeyboardEvent) => {
      if (typingIn(event.target) || event.ctrlKey || event.metaKey || event.altKey) return;
      const item = queue.pairs[index];
      const pick = KEY_PICK[event.key];
      if (pick && item) {
        event.preventDefault();
        desk.call('pairs.label', { a, b, task: item.task, index: item.index, annotator, pick }).then(
          () => load().then(() => setIndex((i) => Math.min(i + 1, queue.pairs.length - 1))),
          (e) => setError(errorText(e)),
        );
      } else if (event.key === 'j' || event.key === 'ArrowRight') setIndex((i) => Math.min(i + 1, queue.pairs.length - 1));
      else if (event.key === 'k' || event.key === 'ArrowLeft') setIndex((i) => Math.max(i - 1, 0));
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [naming, queue, index, a, b, annotator, load]);

  if (naming) {
    return (
      <section className="page label-page">
        <header className="page-head"><h1>Label pairs</h1></header>
        <AnnotatorPrompt initial={annotator} onDone={(name) => { setAnnotator(name); setNaming(false); }} />
      </section>
    );
  }
  const item = queue?.pairs[index];
  return (
    <section className="page label-page">
      <header className="page-head">
        <div><h1>Label pairs <span className="mono muted">{a} vs {b}</span></h1></div>
        <span className="muted">Labeling as <strong>{annotator}</strong>. Keys: a (A is better), b (B is better), = (tie), j/k move</span>
      </header>
      {error && <p className="error-text" role="alert" data-testid="label-error">{error}</p>}
      {queue && queue.pairs.length === 0 && <p className="muted">A and B share no task.</p>}
      <div className="label-split">
        {item && (
          <div className="label-row" data-testid="pair-row" data-task={item.task} data-index={item.index} data-my-pick={item.my_pick ?? ''}>
            <div className="label-row-head">
              <h2>Task {item.task}</h2>
              <span className="muted">pair {index + 1} of {queue.pairs.length}</span>
              {item.my_pick && <span className="my-label">your pick: {item.my_pick === 'tie' ? '=' : item.my_pick.toUpperCase()}</span>}
            </div>
            <p data-testid="pair-prompt">{item.prompt}</p>
            <div className="pair-sides">
              <div><h3>A</h3><pre className="wrap" data-testid="pair-a">{item.a_text}</pre></div>
              <div><h3>B</h3><pre className="wrap" data-testid="pair-b">{item.b_text}</pre></div>
            </div>
          </div>
        )}
        {queue && <Agreement queue={queue} />}
      </div>
    </section>
  );
}
