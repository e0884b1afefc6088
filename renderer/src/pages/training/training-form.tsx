// The export screen's choices: how rows are selected, which eval sets to keep out, the file's shape and mask.
import type { DatasetSummary } from '../../../../shared/api/datasets';
import { TRAINING_SELECTIONS } from '../../../../shared/api/training';
import type { TrainingForm } from './training-settings';

const SELECTION_LABELS: Record<(typeof TRAINING_SELECTIONS)[number], string> = {
  all: 'All rows',
  top_per_prompt: 'SFT: best per prompt (top_per_prompt)',
  random_per_prompt: 'SFT: random per prompt (chance control)',
  top_k_overall: 'SFT: best k overall (top_k_overall)',
  random_k_overall: 'SFT: random k overall (chance control)',
  rl: 'RL: whole mixed groups (select_for_rl)',
};

export function TrainingFormFields({ form, onChange, datasets, defaultPrompt }: { form: TrainingForm; onChange: (next: TrainingForm) => void; datasets: DatasetSummary[]; defaultPrompt: string | null }) {
  const set = <K extends keyof TrainingForm>(key: K, value: TrainingForm[K]) => onChange({ ...form, [key]: value });
  const toggleEval = (id: string, on: boolean) => set('against', on ? [...form.against, id] : form.against.filter((x) => x !== id));
  return (
    <div className="training-form">
      <fieldset>
        <legend>Selection</legend>
        <label className="field">
          Rows
          <select value={form.select} onChange={(e) => set('select', e.target.value as TrainingForm['select'])} data-testid="train-select">
            {TRAINING_SELECTIONS.map((s) => (
              <option key={s} value={s}>{SELECTION_LABELS[s]}</option>
            ))}
          </select>
        </label>
        <label className="field">
          Min reward
          <input type="number" step="0.1" value={form.minReward} placeholder={form.select === 'all' ? 'any' : '1.0'} onChange={(e) => set('minReward', e.target.value)} data-testid="train-min-reward" />
        </label>
        {form.select !== 'all' && (
          <label className="field">
            Rows to keep
            <input type="number" min={1} value={form.target} placeholder="1000" onChange={(e) => set('target', e.target.value)} />
          </label>
        )}
      </fieldset>
      <fieldset>
        <legend>Keep eval tasks out (decontaminate)</legend>
        {datasets.length === 0 && <span className="muted">no other dataset</span>}
        {datasets.map((d) => (
          <label key={d.id} className="check">
            <input type="checkbox" checked={form.against.includes(d.id)} onChange={(e) => toggleEval(d.id, e.target.checked)} data-testid={`train-against-${d.id}`} />
            {d.name} <span className="muted mono">{d.id}</span>
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>File</legend>
        <label className="check">
          <input type="radio" name="format" checked={form.format === 'openai'} onChange={() => set('format', 'openai')} data-testid="train-format-openai" /> OpenAI wire
        </label>
        <label className="check">
          <input type="radio" name="format" checked={form.format === 'trl'} onChange={() => set('format', 'trl')} data-testid="train-format-trl" /> TRL (SFTTrainer)
        </label>
        <label className="field">
          Loss on
          <select value={form.maskMode} onChange={(e) => set('maskMode', e.target.value as TrainingForm['maskMode'])} disabled={form.unroll} data-testid="train-mask">
            <option value="assistant">every agent turn</option>
            <option value="final">the last agent turn</option>
          </select>
        </label>
        <label className="check">
          <input type="checkbox" checked={form.unroll} onChange={(e) => set('unroll', e.target.checked)} data-testid="train-unroll" /> One sample per agent turn (unroll)
        </label>
        <label className="field">
          Cut tool output at
          <input type="number" min={0} value={form.maxToolChars} placeholder="no cut" onChange={(e) => set('maxToolChars', e.target.value)} data-testid="train-max-tool" /> characters
        </label>
        <label className="check">
          <input type="checkbox" checked={form.stripThink} onChange={(e) => set('stripThink', e.target.checked)} /> Strip &lt;think&gt; blocks
        </label>
      </fieldset>
      <fieldset className="wide">
        <legend>System prompt</legend>
        <textarea rows={3} value={form.systemPrompt ?? defaultPrompt ?? ''} placeholder="none: rows are exported without a system message" onChange={(e) => set('systemPrompt', e.target.value)} data-testid="train-system" />
        {form.systemPrompt === null && defaultPrompt && <span className="muted">the run's own system prompt</span>}
      </fieldset>
    </div>
  );
}
