// The command-line spelling of run settings becomes the objects the API takes, and only at the CLI's edge.
import { describe, expect, it } from 'vitest';
import { storedRunConfig } from '../../../shared/api/runs';
import { agentFromSpec, judgeFromSpec } from '../../../shared/schema/agent-spec';
import { agentLabel, agentSettings, judgeLabel, RUN_DEFAULTS } from '../../../shared/schema/run-settings';
import { agentFromFlags, judgeFromFlags } from '../../../main/cli/agent-spec';

describe('agent and judge specs', () => {
  it('reads seeded, openai and llama specs with their flags, defaults from RUN_DEFAULTS', () => {
    expect(agentFromSpec('seeded')).toEqual({ kind: 'seeded', misbehave_rate: RUN_DEFAULTS.misbehave_rate, seed: null });
    expect(agentFromSpec(' seeded ', { misbehave_rate: 0.5, gpu: 'cpu' })).toEqual({ kind: 'seeded', misbehave_rate: 0.5, seed: null });
    expect(agentFromSpec('openai:Qwen/Qwen3-4B@http://127.0.0.1:8000/v1/', { api_key_env: 'MY_KEY' })).toEqual({
      kind: 'openai',
      model: 'Qwen/Qwen3-4B',
      base_url: 'http://127.0.0.1:8000/v1',
      api_key_env: 'MY_KEY',
      temperature: null,
      max_tokens: null,
    });
    expect(agentFromSpec('openai:gpt-4o', {}, { OPENAI_BASE_URL: 'http://x:9/v1' })).toMatchObject({ base_url: 'http://x:9/v1', api_key_env: 'OPENAI_API_KEY' });
    expect(agentFromSpec('llama:./m/q.gguf', { gpu: 'cuda', threads: 4 })).toEqual({ kind: 'llama', model_path: './m/q.gguf', gpu: 'cuda', threads: 4, context_size: null });
    expect(() => agentFromSpec('gpt-4')).toThrow(/unknown agent spec "gpt-4": use seeded, openai:MODEL@BASE_URL or llama:PATH.gguf/);
    expect(() => agentFromSpec('llama:model.bin')).toThrow(/needs the path of a \.gguf file/);
    expect(() => agentFromSpec('openai:@http://h/v1')).toThrow(/names no model/);
    expect(() => agentFromSpec('openai:m@http://user:pw@h/v1')).toThrow(/must not carry credentials/);
    expect(() => agentFromSpec('openai:m@http://h/v1', { api_key_env: 'not a name' })).toThrow(/api_key_env/);
  });

  it('checks a base URL given as settings as it checks one in a spec', () => {
    expect(agentSettings.parse({ kind: 'openai', model: 'm', base_url: 'http://h:1/v1/chat/completions' })).toMatchObject({ base_url: 'http://h:1/v1' });
    expect(agentSettings.safeParse({ kind: 'openai', model: 'm', base_url: 'ftp://h/v1' }).success).toBe(false);
  });

  it('reads module, rules and llm judges with rubric, likert and timeout', () => {
    expect(judgeFromSpec('j.mjs')).toEqual({ kind: 'module', path: 'j.mjs', timeout_s: RUN_DEFAULTS.judge_timeout_s });
    expect(judgeFromSpec('rules.JSON', { timeout_s: 3 })).toEqual({ kind: 'rules', path: 'rules.JSON', timeout_s: 3 });
    expect(judgeFromSpec('llm:openai:phi@http://127.0.0.1:9/v1', { rubric_path: 'r.md', likert: true, timeout_s: 30 })).toEqual({
      kind: 'llm',
      agent: { kind: 'openai', model: 'phi', base_url: 'http://127.0.0.1:9/v1', api_key_env: 'OPENAI_API_KEY', temperature: null, max_tokens: null },
      rubric_path: 'r.md',
      likert: true,
      timeout_s: 30,
    });
    expect(() => judgeFromSpec('llm:')).toThrow(/needs an agent spec/);
    expect(() => judgeFromSpec('j.mjs', { rubric_path: 'r.md' })).toThrow(/--rubric only goes with an LLM judge/);
    expect(() => judgeFromSpec('judge.py')).toThrow(/unknown judge/);
  });

  it('builds settings from the CLI flags, refusing bad values as usage errors', () => {
    expect(agentFromFlags({ agent: 'seeded', 'misbehave-rate': '0.1' })).toMatchObject({ kind: 'seeded', misbehave_rate: 0.1 });
    expect(() => agentFromFlags({ agent: 'seeded', 'misbehave-rate': '1.5' })).toThrow(/--misbehave-rate must be a share in \[0, 1\]/);
    expect(() => agentFromFlags({})).toThrow(/--agent SPEC is required/);
    expect(() => agentFromFlags({ agent: 'llama:a.gguf', gpu: 'tpu' })).toThrow(/--gpu must be one of auto, cpu, cuda, vulkan, metal/);
    expect(judgeFromFlags({})).toBeNull();
    expect(() => judgeFromFlags({ rubric: 'r.md' })).toThrow(/--rubric goes with a judge/);
    expect(judgeFromFlags({ judge: 'j.mjs', 'judge-timeout': '2.5' })).toEqual({ kind: 'module', path: 'j.mjs', timeout_s: 2.5 });
    expect(judgeFromFlags({ judge: 'llm:seeded', 'api-key-env': 'K' })).toMatchObject({ kind: 'llm', agent: { kind: 'seeded' } });
    expect(() => judgeFromFlags({ judge: 'j.mjs', 'judge-timeout': '-1' })).toThrow(/--judge-timeout must be a number of seconds above 0/);
  });

  it('labels settings for lists', () => {
    expect(agentLabel(agentFromSpec('openai:m@http://127.0.0.1:8000/v1'))).toBe('m@127.0.0.1:8000');
    expect(agentLabel(agentFromSpec('llama:/models/qwen.gguf'))).toBe('qwen.gguf');
    expect(judgeLabel(judgeFromSpec('/x/y/judge.mjs'))).toBe('judge.mjs');
    expect(judgeLabel(judgeFromSpec('llm:seeded'))).toBe('llm:seeded');
  });

  it('upgrades a config stored with spec strings, and leaves a new one as it is', () => {
    const base = { tasks_path: '/t.jsonl', tasks_sha256: 'ab', tasks_count: 2, k: 2, runs: 1, seed: 0, max_turns: 8, concurrency: 8 };
    const old = { ...base, agent: 'llama:/m/q.gguf', judge: 'llm:openai:j@http://127.0.0.1:1/v1', rubric: '/r.md', misbehave_rate: 0.3, api_key_env: 'K', gpu: 'cpu', threads: 2, context_size: null };
    const upgraded = storedRunConfig.parse(old);
    expect(upgraded.agent).toEqual({ kind: 'llama', model_path: '/m/q.gguf', gpu: 'cpu', threads: 2, context_size: null });
    expect(upgraded.judge).toMatchObject({ kind: 'llm', rubric_path: '/r.md', agent: { kind: 'openai', model: 'j', api_key_env: 'K' } });
    // Settings added since (a sweep arm's system prompt, the agent's name and version) read as null on an old run.
    const added = { system_prompt: null, agent_name: null, version: null, stamp_markers: true };
    expect(storedRunConfig.parse({ ...base, agent: 'seeded', judge: null })).toEqual({ ...base, ...added, agent: { kind: 'seeded', misbehave_rate: 0.3, seed: null }, judge: null });
    const current = { ...base, ...added, agent: { kind: 'seeded', misbehave_rate: 0.2, seed: 5 }, judge: { kind: 'rules', path: '/r.json', timeout_s: 4 } };
    expect(storedRunConfig.parse(current)).toEqual(current);
  });
});
