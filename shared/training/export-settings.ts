// The settings of a training export (export_dataset's keyword arguments), with the SDK's defaults, and their check.
import { EXPORT_FORMATS, type ExportFormat } from './roundtrip';
import { MASK_MODES, type MaskMode } from './wire';

export interface ExportSettings {
  format: ExportFormat;
  mask_mode: MaskMode;
  unroll: boolean;
  max_tool_output_chars: number | null;
  strip_think: boolean;
  system_prompt: string;
  tools: unknown[];
  validate: boolean;
}

export const DEFAULT_EXPORT: ExportSettings = {
  format: 'openai',
  mask_mode: 'assistant',
  unroll: false,
  max_tool_output_chars: null,
  strip_think: true,
  system_prompt: '',
  tools: [],
  validate: true,
};

/** Thrown for a refused call, as the SDK raises ValueError: what was wrong, in words. */
export class TrainingValueError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ValueError';
  }
}

/** The settings with defaults filled; a bad format or mask mode is refused the way the SDK refuses it. */
export function exportSettings(input: Partial<ExportSettings> = {}): ExportSettings {
  const s = { ...DEFAULT_EXPORT, ...Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) } as ExportSettings;
  if (!(EXPORT_FORMATS as readonly string[]).includes(s.format)) throw new TrainingValueError(`format must be one of ${EXPORT_FORMATS.join(', ')}, got ${JSON.stringify(s.format)}`);
  if (!(MASK_MODES as readonly string[]).includes(s.mask_mode)) throw new TrainingValueError(`mask_mode must be one of ${MASK_MODES.join(', ')}, got ${JSON.stringify(s.mask_mode)}`);
  if (s.max_tool_output_chars !== null && !Number.isInteger(s.max_tool_output_chars)) {
    throw new TrainingValueError(`max_tool_output_chars must be a whole number of characters, got ${JSON.stringify(s.max_tool_output_chars)}`);
  }
  s.system_prompt = s.system_prompt ? String(s.system_prompt) : '';
  s.tools = Array.isArray(s.tools) ? s.tools : [];
  return s;
}
