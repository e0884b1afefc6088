// The export screen's choices as the form holds them (text fields stay text until sent), and their settings object.
import type { TrainingSelection, TrainingSettingsInput } from '../../../../shared/api/training';

export interface TrainingForm {
  select: TrainingSelection;
  minReward: string;
  target: string;
  against: string[];
  format: 'openai' | 'trl';
  maskMode: 'assistant' | 'final';
  unroll: boolean;
  maxToolChars: string;
  stripThink: boolean;
  /** null: the run's own system prompt (training.defaults). */
  systemPrompt: string | null;
}

export const defaultForm: TrainingForm = {
  select: 'all',
  minReward: '',
  target: '',
  against: [],
  format: 'openai',
  maskMode: 'assistant',
  unroll: false,
  maxToolChars: '',
  stripThink: true,
  systemPrompt: null,
};

/** The settings, or what is wrong with a field, in words. */
export function settingsOf(form: TrainingForm): { settings: TrainingSettingsInput } | { problem: string } {
  const number = (text: string, what: string, whole: boolean): number | null | string => {
    if (text.trim() === '') return null;
    const n = Number(text);
    if (!Number.isFinite(n) || (whole && (!Number.isInteger(n) || n < 0))) return `${what} must be ${whole ? 'a whole number of at least 0' : 'a number'}`;
    return n;
  };
  const minReward = number(form.minReward, 'min reward', false);
  const target = number(form.target, 'rows to keep', true);
  const maxTool = number(form.maxToolChars, 'tool output cap', true);
  for (const value of [minReward, target, maxTool]) if (typeof value === 'string') return { problem: value };
  if (target === 0) return { problem: 'rows to keep must be at least 1' };
  return {
    settings: {
      select: form.select,
      min_reward: minReward as number | null,
      target: target as number | null,
      decontaminate_against: form.against,
      format: form.format,
      mask_mode: form.maskMode,
      unroll: form.unroll,
      max_tool_output_chars: maxTool as number | null,
      strip_think: form.stripThink,
      system_prompt: form.systemPrompt,
    },
  };
}
