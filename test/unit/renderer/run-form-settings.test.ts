// The new-run form's values become the settings objects runs.start takes, starting from RUN_DEFAULTS.
import { describe, expect, it } from 'vitest';
import { runStartInput } from '../../../shared/api/runs';
import { RUN_DEFAULTS } from '../../../shared/schema/run-settings';
import { agentSettingsOf, defaultAgent, defaultJudge, judgeSettingsOf } from '../../../renderer/src/pages/runs/run-form-settings';

describe('new-run form settings', () => {
  it('starts from RUN_DEFAULTS and gives a valid runs.start input', () => {
    expect(defaultAgent).toMatchObject({ misbehaveRate: RUN_DEFAULTS.misbehave_rate, gpu: RUN_DEFAULTS.gpu, apiKeyEnv: RUN_DEFAULTS.api_key_env });
    expect(defaultJudge.timeoutS).toBe(RUN_DEFAULTS.judge_timeout_s);
    const agent = agentSettingsOf(defaultAgent);
    const judge = judgeSettingsOf(defaultJudge);
    expect(agent).toEqual({ settings: { kind: 'seeded', misbehave_rate: RUN_DEFAULTS.misbehave_rate, seed: null } });
    expect(judge).toEqual({ settings: null });
    if (!('settings' in agent) || !('settings' in judge)) throw new Error('unreachable');
    const input = runStartInput.parse({ tasks_text: '{}', agent: agent.settings, judge: judge.settings });
    expect(input).toMatchObject({ runs: RUN_DEFAULTS.runs, concurrency: RUN_DEFAULTS.concurrency, seed: RUN_DEFAULTS.seed, max_turns: RUN_DEFAULTS.max_turns, judge: null });
  });

  it('builds openai, llama and judge settings, and says what is missing', () => {
    expect(agentSettingsOf({ ...defaultAgent, kind: 'openai', openaiModel: 'm', baseUrl: 'http://127.0.0.1:8000/v1/' })).toEqual({
      settings: { kind: 'openai', model: 'm', base_url: 'http://127.0.0.1:8000/v1', api_key_env: 'OPENAI_API_KEY', temperature: null, max_tokens: null },
    });
    expect(agentSettingsOf({ ...defaultAgent, kind: 'openai', openaiModel: 'm', baseUrl: 'ftp://x' })).toEqual({ problem: expect.stringMatching(/base_url: .*http/) });
    expect(agentSettingsOf({ ...defaultAgent, kind: 'openai', openaiModel: ' ' })).toEqual({ problem: expect.stringMatching(/model: name the model/) });
    expect(agentSettingsOf({ ...defaultAgent, kind: 'llama' })).toEqual({ problem: 'pick a GGUF model for the local agent' });
    expect(agentSettingsOf({ ...defaultAgent, kind: 'llama', modelPath: '/m/q.gguf', threads: '4' })).toEqual({
      settings: { kind: 'llama', model_path: '/m/q.gguf', gpu: 'auto', threads: 4, context_size: null },
    });
    expect(judgeSettingsOf({ ...defaultJudge, path: '/j/rules.json', timeoutS: 3 })).toEqual({ settings: { kind: 'rules', path: '/j/rules.json', timeout_s: 3 } });
    expect(judgeSettingsOf({ ...defaultJudge, path: '/j/judge.mjs' })).toEqual({ settings: { kind: 'module', path: '/j/judge.mjs', timeout_s: 10 } });
    expect(judgeSettingsOf({ ...defaultJudge, kind: 'llm', rubricPath: '/r.md' })).toEqual({
      settings: { kind: 'llm', agent: { kind: 'seeded', misbehave_rate: 0.3, seed: null }, rubric_path: '/r.md', likert: false, timeout_s: 10 },
    });
    expect(judgeSettingsOf({ ...defaultJudge, path: 'j.mjs', timeoutS: 0 })).toEqual({ problem: expect.stringMatching(/timeout_s/) });
  });
});
