// Push a dataset or run: the name it gets on the platform, its purpose, a holdout split, the gate (and its hack scan).
import { useEffect, useState, type FormEvent } from 'react';
import type { DatasetSummary } from '../../../../shared/api/datasets';
import { desk, errorText } from '../../api/desk';

/** `chosen`: the dataset the person came to push (from its page's Push link). */
export function PushForm({ signedIn, pushed, chosen }: { signedIn: boolean; pushed(): void; chosen?: string | null }) {
  const [datasets, setDatasets] = useState<DatasetSummary[]>([]);
  const [id, setId] = useState(chosen ?? '');
  const [name, setName] = useState('');
  const [purpose, setPurpose] = useState<'' | 'train' | 'holdout' | 'eval'>('');
  const [holdout, setHoldout] = useState('');
  const [agent, setAgent] = useState('');
  const [gate, setGate] = useState(true);
  const [endorsed, setEndorsed] = useState('');
  const [strictHacks, setStrictHacks] = useState(false);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    desk.call('datasets.list', {}).then(setDatasets, (failure: unknown) => setError(errorText(failure)));
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setOutcome(null);
    try {
      const fraction = holdout.trim() ? Number(holdout) : undefined;
      const patterns = endorsed.split(',').map((part) => part.trim()).filter(Boolean);
      const result = await desk.call('sync.push', {
        dataset_id: id,
        name: name.trim(),
        ...(purpose ? { purpose } : {}),
        ...(agent.trim() ? { agent: agent.trim() } : {}),
        ...(fraction !== undefined ? { holdout: fraction } : {}),
        gate,
        ...(gate && patterns.length ? { endorsed: patterns } : {}),
        strict_hacks: gate && strictHacks,
      });
      const entry = result.item.result ?? {};
      setOutcome(result.item.state === 'done' ? `Pushed as ${String(entry.datasetId)} (${String(entry.rows ?? result.rows)} rows).` : `Queued: ${result.item.last_error ?? 'it goes with the next sync'}`);
      pushed();
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="dropzone" onSubmit={submit} aria-label="Push a dataset">
      <label className="field">
        Dataset or run
        <select value={id} onChange={(event) => setId(event.target.value)}>
          <option value="">choose…</option>
          {/* The dataset the person came to push shows at once, before the list of datasets has arrived. */}
          {id && !datasets.some((dataset) => dataset.id === id) && <option value={id}>{id}</option>}
          {datasets.map((dataset) => (
            <option key={dataset.id} value={dataset.id}>
              {dataset.name} ({dataset.rows} rows, {dataset.id})
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        Name on the platform
        <input type="text" value={name} onChange={(event) => setName(event.target.value)} size={24} />
      </label>
      <label className="field">
        Purpose
        <select value={purpose} onChange={(event) => setPurpose(event.target.value as typeof purpose)}>
          <option value="">none</option>
          <option value="train">train</option>
          <option value="holdout">holdout</option>
          <option value="eval">eval</option>
        </select>
      </label>
      <label className="field">
        Holdout fraction
        <input type="number" min="0" max="0.99" step="0.05" value={holdout} placeholder="e.g. 0.2" onChange={(event) => setHoldout(event.target.value)} />
      </label>
      <label className="field">
        Agent
        <input type="text" value={agent} onChange={(event) => setAgent(event.target.value)} size={16} />
      </label>
      <label className="field">
        <input type="checkbox" checked={gate} onChange={(event) => setGate(event.target.checked)} /> Publish gate (stamps calibration; refuses RL data that trains nothing)
      </label>
      <label className="field">
        What the reward should pay for
        <input type="text" value={endorsed} disabled={!gate} onChange={(event) => setEndorsed(event.target.value)} size={28} placeholder="tool:lookup_order, marker:grounded" />
      </label>
      <label className="field">
        <input type="checkbox" checked={strictHacks} disabled={!gate} onChange={(event) => setStrictHacks(event.target.checked)} /> Refuse a reward hack (the gate's hack scan; see
        the dataset's "What will it learn?")
      </label>
      <button type="submit" disabled={!signedIn || busy || !id || !name.trim()} title={signedIn ? undefined : 'Sign in first'}>
        {busy ? 'Pushing…' : 'Push'}
      </button>
      {outcome && <p role="status">{outcome}</p>}
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
