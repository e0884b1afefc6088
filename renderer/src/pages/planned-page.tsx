// Sections not built yet: each says plainly what it will hold. No fake data.
import type { Section } from '../store/route-store';

const PLANNED: Record<Exclude<Section, 'runs' | 'settings'>, { title: string; lines: string[] }> = {
  label: {
    title: 'Label',
    lines: [
      'Hand-label gold rows fast: p/f or 1-9 to label, Enter to submit and move on, j/k to move, ? for the shortcuts.',
      'Labels are records (annotator, kind, value, note, time); undo appends, nothing is overwritten.',
      'Judge agreement: whether the judge can be trusted against the gold you labelled.',
    ],
  },
  compare: {
    title: 'Compare and sweeps',
    lines: [
      'Sweeps over models, prompts and settings, with verdicts and intervals (not built yet; Compare is).',
    ],
  },
  sync: {
    title: 'Sync',
    lines: [
      'Push datasets, runs, labels and reports to your While account with one click.',
      'Nothing leaves this machine until you turn sync on; an outbox keeps every item until the platform confirms it.',
    ],
  },
};

export function PlannedPage({ section }: { section: Exclude<Section, 'runs' | 'settings'> }) {
  const page = PLANNED[section];
  return (
    <section className="page">
      <header className="page-head">
        <h1>{page.title}</h1>
      </header>
      <div className="planned">
        <p className="muted">Not built yet. This section will hold:</p>
        <ul>
          {page.lines.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </div>
    </section>
  );
}
