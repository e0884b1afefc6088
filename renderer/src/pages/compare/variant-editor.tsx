// The new-sweep form's variants: rows of label, system prompt and agent (the run form's agent fields, plus the seeded
// agent's own seed), added, removed, or loaded from a variants JSON file (docs/sweeps.md), checked by the same schema.
import { useState } from 'react';
import { parseVariantsJson } from '../../../../shared/api/sweep-variants';
import { LABEL_MAX } from '../../../../shared/platform/index';
import { AgentFields } from '../runs/agent-fields';
import { newVariantRow, rowOfVariant, type VariantRow } from './sweep-form-settings';

function VariantFields({ row, index, onChange, onRemove }: { row: VariantRow; index: number; onChange: (next: VariantRow) => void; onRemove?: () => void }) {
  const id = (name: string) => `v${row.key}-${name}`;
  const set = (patch: Partial<VariantRow>) => onChange({ ...row, ...patch });
  const length = [...row.label.trim()].length;
  return (
    <fieldset className="form sweep-variant" data-testid="sweep-variant" aria-label={`Variant ${index + 1}`}>
      <legend>
        Variant {index + 1} {onRemove && <button type="button" onClick={onRemove}>Remove</button>}
      </legend>
      <label htmlFor={id('label')}>Label</label>
      <input id={id('label')} type="text" value={row.label} placeholder="prompt@model, e.g. careful@seeded" data-testid="variant-label" onChange={(event) => set({ label: event.target.value })} />
      <span className={`hint ${length > LABEL_MAX ? 'error-text' : 'muted'}`}>
        {length} of {LABEL_MAX} characters; unique in the sweep. Empty: h- and the harness fingerprint.
      </span>
      <label htmlFor={id('prompt')}>System prompt</label>
      <textarea id={id('prompt')} rows={2} value={row.systemPrompt} placeholder="empty: each task keeps its own" data-testid="variant-prompt" onChange={(event) => set({ systemPrompt: event.target.value })} />
      <AgentFields idPrefix={id('')} value={row.agent} onChange={(agent) => set({ agent })} />
      {row.agent.kind === 'seeded' && (
        <>
          <label htmlFor={id('seed')}>Agent seed</label>
          <input id={id('seed')} type="number" step={1} value={row.seed} placeholder="the run's seed" data-testid="variant-seed" onChange={(event) => set({ seed: event.target.value })} />
          <span className="hint muted">This arm&apos;s own seed for the seeded agent; noise re-runs move it by their number.</span>
        </>
      )}
    </fieldset>
  );
}

export function VariantEditor({ rows, onChange }: { rows: VariantRow[]; onChange: (rows: VariantRow[]) => void }) {
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const load = async (file: File | undefined) => {
    if (!file) return;
    const read = parseVariantsJson(await file.text(), file.name);
    if ('problem' in read) return setFileProblem(read.problem);
    setFileProblem(null);
    onChange(read.variants.map(rowOfVariant));
  };
  return (
    <div className="sweep-variants" data-testid="sweep-variants">
      {rows.map((row, i) => (
        <VariantFields
          key={row.key}
          row={row}
          index={i}
          onChange={(next) => onChange(rows.map((r) => (r.key === row.key ? next : r)))}
          onRemove={rows.length > 1 ? () => onChange(rows.filter((r) => r.key !== row.key)) : undefined}
        />
      ))}
      <div className="page-actions">
        <button type="button" data-testid="add-variant" onClick={() => onChange([...rows, newVariantRow()])}>Add variant</button>
        <label className="file-button">
          Load a variants file (JSON)…{' '}
          <input type="file" accept=".json,application/json" data-testid="variants-file" onChange={(event) => void load(event.target.files?.[0])} />
        </label>
      </div>
      {fileProblem && <p className="error-text" role="alert" data-testid="variants-file-problem">{fileProblem}</p>}
    </div>
  );
}
