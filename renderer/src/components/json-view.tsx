// Pretty JSON, collapsible, clipped when huge so one giant tool result cannot freeze the page.
import { useState } from 'react';

const CLIP = 20_000;

export function prettyJson(value: unknown): string {
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if ((trimmed.startsWith('{') && trimmed.endsWith('}')) || (trimmed.startsWith('[') && trimmed.endsWith(']'))) {
      try {
        return JSON.stringify(JSON.parse(trimmed), null, 2);
      } catch {
        return value;
      }
    }
    return value;
  }
  if (value === undefined) return '(none)';
  return JSON.stringify(value, null, 2) ?? String(value);
}

export function JsonView({ label, value, open = true }: { label: string; value: unknown; open?: boolean }) {
  const [full, setFull] = useState(false);
  const text = prettyJson(value);
  const clipped = !full && text.length > CLIP;
  return (
    <details className="json" open={open}>
      <summary>{label}</summary>
      <pre>{clipped ? text.slice(0, CLIP) : text}</pre>
      {clipped && (
        <button type="button" className="link" onClick={() => setFull(true)}>
          Show all {text.length.toLocaleString()} characters
        </button>
      )}
    </details>
  );
}
