// Asked once: who is labeling. A focused text field; Enter confirms; remembered in localStorage.
import { useEffect, useRef, useState } from 'react';

export function AnnotatorPrompt({ initial, onDone }: { initial: string; onDone: (name: string) => void }) {
  const [name, setName] = useState(initial);
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => field.current?.focus(), []);
  return (
    <form
      className="annotator-prompt"
      aria-label="Annotator"
      onSubmit={(event) => {
        event.preventDefault();
        if (name.trim()) onDone(name.trim());
      }}
    >
      <label htmlFor="annotator-name">Your name, stamped on every label you give</label>
      <input id="annotator-name" data-testid="annotator-name" ref={field} value={name} maxLength={200} autoComplete="off" onChange={(event) => setName(event.target.value)} />
      <button type="submit" disabled={!name.trim()}>Start labeling</button>
      <p className="muted">Press Enter to start. The name is remembered in this browser.</p>
    </form>
  );
}
