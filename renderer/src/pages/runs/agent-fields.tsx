// The agent part of the new-run form: seeded, a local GGUF (picked from the models found), or an OpenAI-compatible server.
import { useEffect, useState } from 'react';
import type { ModelFile } from '../../../../shared/api/models';
import { desk, errorText } from '../../api/desk';
import { formatBytes } from '../../components/format';
import { hrefFor } from '../../store/route-store';

export type AgentKind = 'seeded' | 'llama' | 'openai';

export interface AgentChoice {
  kind: AgentKind;
  modelPath: string;
  openaiModel: string;
  baseUrl: string;
  apiKeyEnv: string;
  misbehaveRate: number;
}

export const defaultAgent: AgentChoice = { kind: 'seeded', modelPath: '', openaiModel: '', baseUrl: 'http://127.0.0.1:8000/v1', apiKeyEnv: '', misbehaveRate: 0.3 };

/** The spec string `runs.start` takes, or a sentence saying what is missing. */
export function agentSpec(choice: AgentChoice): { spec: string } | { problem: string } {
  if (choice.kind === 'seeded') return { spec: 'seeded' };
  if (choice.kind === 'llama') return choice.modelPath ? { spec: `llama:${choice.modelPath}` } : { problem: 'pick a GGUF model for the local agent' };
  if (!choice.openaiModel.trim()) return { problem: 'give the model name the server expects' };
  if (!/^https?:\/\//.test(choice.baseUrl.trim())) return { problem: 'the base URL must start with http:// or https://' };
  return { spec: `openai:${choice.openaiModel.trim()}@${choice.baseUrl.trim()}` };
}

function ModelSelect({ value, onChange }: { value: string; onChange: (path: string) => void }) {
  const [models, setModels] = useState<ModelFile[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    desk.call('models.list', {}).then(setModels, (failure: unknown) => setError(errorText(failure)));
  }, []);
  if (error) return <span className="error-text">Could not list models: {error}</span>;
  if (!models) return <span className="muted">Looking for GGUF files…</span>;
  const usable = models.filter((model) => !model.problem);
  if (usable.length === 0)
    return (
      <span className="muted">
        No GGUF files found. <a href={hrefFor({ page: 'models' })}>Add a model folder</a>.
      </span>
    );
  return (
    <select value={value} onChange={(event) => onChange(event.target.value)} aria-label="Model">
      <option value="">Pick a model…</option>
      {usable.map((model) => (
        <option key={model.path} value={model.path}>
          {model.name} · {model.quantization ?? 'unknown quantization'} · {formatBytes(model.size_bytes)}
        </option>
      ))}
    </select>
  );
}

export function AgentFields({ value, onChange }: { value: AgentChoice; onChange: (next: AgentChoice) => void }) {
  const set = (patch: Partial<AgentChoice>) => onChange({ ...value, ...patch });
  return (
    <>
      <label htmlFor="agent-kind">Agent</label>
      <select id="agent-kind" value={value.kind} onChange={(event) => set({ kind: event.target.value as AgentKind })}>
        <option value="seeded">Seeded (offline, no model; deterministic from the seed)</option>
        <option value="llama">Local GGUF model (node-llama-cpp)</option>
        <option value="openai">OpenAI-compatible server</option>
      </select>
      {value.kind === 'seeded' && (
        <>
          <label htmlFor="misbehave">Misbehave rate</label>
          <input id="misbehave" type="number" min={0} max={1} step={0.05} value={value.misbehaveRate} onChange={(event) => set({ misbehaveRate: Number(event.target.value) })} />
          <span className="hint muted">Share of rollouts where the seeded agent skips a tool, invents an argument, refuses or answers empty.</span>
        </>
      )}
      {value.kind === 'llama' && (
        <>
          <label>Model</label>
          <ModelSelect value={value.modelPath} onChange={(modelPath) => set({ modelPath })} />
        </>
      )}
      {value.kind === 'openai' && (
        <>
          <label htmlFor="openai-model">Model name</label>
          <input id="openai-model" type="text" value={value.openaiModel} placeholder="e.g. qwen2.5-7b-instruct" onChange={(event) => set({ openaiModel: event.target.value })} />
          <label htmlFor="base-url">Base URL</label>
          <input id="base-url" type="text" value={value.baseUrl} onChange={(event) => set({ baseUrl: event.target.value })} />
          <label htmlFor="key-env">API key variable</label>
          <input id="key-env" type="text" value={value.apiKeyEnv} placeholder="OPENAI_API_KEY" onChange={(event) => set({ apiKeyEnv: event.target.value })} />
          <span className="hint muted">The name of an environment variable of the engine holding the key; the key itself never passes through this page.</span>
        </>
      )}
    </>
  );
}
