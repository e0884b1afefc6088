// The agent part of the new-run form (also the LLM judge's agent): seeded, a local GGUF, or an OpenAI-compatible
// server, as the settings object `runs.start` takes. Defaults and hints come from RUN_DEFAULTS / RUN_SETTING_HELP.
import { useEffect, useState } from 'react';
import type { ModelFile } from '../../../../shared/api/models';
import { llamaGpu, RUN_DEFAULTS, RUN_SETTING_HELP, type LlamaGpu } from '../../../../shared/schema/run-settings';
import { desk, errorText } from '../../api/desk';
import { canPickPaths, pickFile } from '../../api/files';
import { formatBytes } from '../../components/format';
import { hrefFor } from '../../store/route-store';
import type { AgentChoice, AgentKind } from './run-form-settings';

export { agentSettingsOf, defaultAgent, type AgentChoice } from './run-form-settings';

function ModelSelect({ id, value, onChange }: { id: string; value: string; onChange: (path: string) => void }) {
  const [models, setModels] = useState<ModelFile[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    desk.call('models.list', {}).then(setModels, (failure: unknown) => setError(errorText(failure)));
  }, []);
  const picker = canPickPaths() && (
    <button type="button" onClick={() => void pickFile('model').then((picked) => picked && onChange(picked))}>
      Choose a GGUF file…
    </button>
  );
  if (error) return <span className="error-text">Could not list models: {error} {picker}</span>;
  if (!models) return <span className="muted">Looking for GGUF files…</span>;
  const usable = models.filter((model) => !model.problem);
  const listed = usable.some((model) => model.path === value);
  return (
    <span className="row-between">
      {usable.length === 0 && !value ? (
        <span className="muted">
          No GGUF files found. <a href={hrefFor({ page: 'models' })}>Add a model folder</a>.
        </span>
      ) : (
        <select id={id} value={value} onChange={(event) => onChange(event.target.value)} aria-label="Model">
          <option value="">Pick a model…</option>
          {!listed && value && <option value={value}>{value}</option>}
          {usable.map((model) => (
            <option key={model.path} value={model.path}>
              {model.name} · {model.quantization ?? 'unknown quantization'} · {formatBytes(model.size_bytes)}
            </option>
          ))}
        </select>
      )}
      {picker}
    </span>
  );
}

export function AgentFields({ value, onChange, idPrefix = '', label = 'Agent' }: { value: AgentChoice; onChange: (next: AgentChoice) => void; idPrefix?: string; label?: string }) {
  const set = (patch: Partial<AgentChoice>) => onChange({ ...value, ...patch });
  const id = (name: string) => `${idPrefix}${name}`;
  return (
    <>
      <label htmlFor={id('agent-kind')}>{label}</label>
      <select id={id('agent-kind')} value={value.kind} onChange={(event) => set({ kind: event.target.value as AgentKind })}>
        <option value="seeded">Seeded (offline, no model; deterministic from the seed)</option>
        <option value="llama">Local GGUF model (node-llama-cpp)</option>
        <option value="openai">OpenAI-compatible server</option>
      </select>
      {value.kind === 'seeded' && (
        <>
          <label htmlFor={id('misbehave')}>Misbehave rate</label>
          <input id={id('misbehave')} type="number" min={0} max={1} step={0.05} value={value.misbehaveRate} onChange={(event) => set({ misbehaveRate: Number(event.target.value) })} />
          <span className="hint muted">{RUN_SETTING_HELP.misbehave_rate}: it skips a tool, invents an argument, refuses or answers empty.</span>
        </>
      )}
      {value.kind === 'llama' && (
        <>
          <label htmlFor={id('model')}>Model</label>
          <ModelSelect id={id('model')} value={value.modelPath} onChange={(modelPath) => set({ modelPath })} />
          <label htmlFor={id('gpu')}>GPU</label>
          <select id={id('gpu')} value={value.gpu} onChange={(event) => set({ gpu: event.target.value as LlamaGpu })}>
            {llamaGpu.options.map((gpu) => (
              <option key={gpu} value={gpu}>{gpu}</option>
            ))}
          </select>
          <label htmlFor={id('threads')}>CPU threads</label>
          <input id={id('threads')} type="number" min={1} max={512} value={value.threads} placeholder="default" onChange={(event) => set({ threads: event.target.value })} />
          <label htmlFor={id('context-size')}>Context size</label>
          <input id={id('context-size')} type="number" min={256} value={value.contextSize} placeholder="the model's own" onChange={(event) => set({ contextSize: event.target.value })} />
        </>
      )}
      {value.kind === 'openai' && (
        <>
          <label htmlFor={id('openai-model')}>Model name</label>
          <input id={id('openai-model')} type="text" value={value.openaiModel} placeholder="e.g. qwen2.5-7b-instruct" onChange={(event) => set({ openaiModel: event.target.value })} />
          <label htmlFor={id('base-url')}>Base URL</label>
          <input id={id('base-url')} type="text" value={value.baseUrl} onChange={(event) => set({ baseUrl: event.target.value })} />
          <label htmlFor={id('key-env')}>API key variable</label>
          <input id={id('key-env')} type="text" value={value.apiKeyEnv} placeholder={RUN_DEFAULTS.api_key_env} onChange={(event) => set({ apiKeyEnv: event.target.value })} />
          <span className="hint muted">{RUN_SETTING_HELP.api_key_env}; the key itself never passes through this page.</span>
        </>
      )}
    </>
  );
}
