// The SDK's keyword arguments of pass_at and curriculum as a small form (applied on Enter or blur).
import { useState } from 'react';

export interface MeasureSettings {
  k: number | null;
  min_k: number;
  unanimous_short: boolean;
  solved: number;
  floor: number;
  band: [number, number];
  tiers: number;
  min_rollouts: number;
}

export const defaultSettings: MeasureSettings = { k: null, min_k: 4, unanimous_short: false, solved: 0.8, floor: 0.2, band: [0.2, 0.8], tiers: 3, min_rollouts: 2 };

function NumberField({ label, value, onCommit, step = 1, placeholder }: { label: string; value: number | null; onCommit: (v: number | null) => void; step?: number; placeholder?: string }) {
  const [text, setText] = useState(value === null ? '' : String(value));
  const commit = () => {
    const trimmed = text.trim();
    if (trimmed === '') return onCommit(null);
    const parsed = Number(trimmed);
    if (Number.isFinite(parsed)) onCommit(parsed);
    else setText(value === null ? '' : String(value));
  };
  return (
    <label className="measure-field">
      <span>{label}</span>
      <input type="number" step={step} value={text} placeholder={placeholder} onChange={(e) => setText(e.target.value)} onBlur={commit} onKeyDown={(e) => e.key === 'Enter' && commit()} />
    </label>
  );
}

export function MeasureControls({ value, onChange }: { value: MeasureSettings; onChange: (next: MeasureSettings) => void }) {
  const set = (patch: Partial<MeasureSettings>) => onChange({ ...value, ...patch });
  const int = (v: number | null, fallback: number) => (v === null ? fallback : Math.max(1, Math.round(v)));
  return (
    <details className="measure-controls">
      <summary>Settings</summary>
      <div className="measure-fields">
        <NumberField label="k" value={value.k} placeholder="auto" onCommit={(v) => set({ k: v === null ? null : int(v, 1) })} />
        <NumberField label="min k" value={value.min_k} onCommit={(v) => set({ min_k: int(v, 4) })} />
        <label className="measure-field">
          <span>count short unanimous tasks</span>
          <input type="checkbox" checked={value.unanimous_short} onChange={(e) => set({ unanimous_short: e.target.checked })} />
        </label>
        <NumberField label="solved above" step={0.05} value={value.solved} onCommit={(v) => set({ solved: v ?? 0.8 })} />
        <NumberField label="floor" step={0.05} value={value.floor} onCommit={(v) => set({ floor: v ?? 0.2 })} />
        <NumberField label="band low" step={0.05} value={value.band[0]} onCommit={(v) => set({ band: [v ?? 0.2, value.band[1]] })} />
        <NumberField label="band high" step={0.05} value={value.band[1]} onCommit={(v) => set({ band: [value.band[0], v ?? 0.8] })} />
        <NumberField label="tiers" value={value.tiers} onCommit={(v) => set({ tiers: int(v, 3) })} />
        <NumberField label="min tries" value={value.min_rollouts} onCommit={(v) => set({ min_rollouts: int(v, 2) })} />
      </div>
      <p className="muted">k left empty uses the smallest group of two or more tries; pass^k and pass@k need k of at least min k.</p>
    </details>
  );
}
