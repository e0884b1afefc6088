// The judge part of the new-run form: none, a program or rules file, or an LLM judge with a rubric; its per-row timeout.
import { RUN_SETTING_HELP } from '../../../../shared/schema/run-settings';
import { canPickPaths, pickFile, type FileKind } from '../../api/files';
import { AgentFields } from './agent-fields';
import type { JudgeChoice } from './run-form-settings';

export { defaultJudge, judgeSettingsOf, type JudgeChoice } from './run-form-settings';

/** A file on the engine's machine: the native dialog in the desktop app; a typed path where there is none (a browser). */
export function PathField({ id, label, kind, value, onChange, placeholder }: { id: string; label: string; kind: FileKind; value: string; onChange: (path: string) => void; placeholder: string }) {
  return (
    <>
      <label htmlFor={id}>{label}</label>
      {canPickPaths() ? (
        <span className="row-between">
          <button id={id} type="button" onClick={() => void pickFile(kind).then((picked) => picked && onChange(picked))}>
            {value ? 'Change…' : 'Choose…'}
          </button>
          <span className="mono">{value || 'none'}</span>
          {value && <button type="button" onClick={() => onChange('')}>Clear</button>}
        </span>
      ) : (
        <input id={id} type="text" value={value} placeholder={placeholder} onChange={(event) => onChange(event.target.value)} />
      )}
    </>
  );
}

export function JudgeFields({ value, onChange }: { value: JudgeChoice; onChange: (next: JudgeChoice) => void }) {
  const set = (patch: Partial<JudgeChoice>) => onChange({ ...value, ...patch });
  return (
    <>
      <label htmlFor="judge-kind">Grade with</label>
      <select id="judge-kind" value={value.kind} onChange={(event) => set({ kind: event.target.value as JudgeChoice['kind'] })}>
        <option value="file">A program (.mjs) or rules file (.json)</option>
        <option value="llm">An LLM judge with a rubric</option>
      </select>
      {value.kind === 'file' ? (
        <>
          <PathField id="judge" label="Judge" kind="judge" value={value.path} onChange={(path) => set({ path })} placeholder="none, or /path/to/judge.mjs or rules.json" />
          <span className="hint muted">Empty: rows stay ungraded. A path on the engine's machine.</span>
        </>
      ) : (
        <>
          <AgentFields idPrefix="judge-" label="Judge agent" value={value.agent} onChange={(agent) => set({ agent })} />
          <PathField id="rubric" label="Rubric file" kind="rubric" value={value.rubricPath} onChange={(rubricPath) => set({ rubricPath })} placeholder="/path/to/rubric.md (optional)" />
          <label htmlFor="likert">Likert 1..5</label>
          <input id="likert" type="checkbox" checked={value.likert} onChange={(event) => set({ likert: event.target.checked })} />
        </>
      )}
      <label htmlFor="judge-timeout">Timeout per row (s)</label>
      <input id="judge-timeout" type="number" min={0.1} max={3600} step="any" value={value.timeoutS} onChange={(event) => set({ timeoutS: Number(event.target.value) })} />
      <span className="hint muted">{RUN_SETTING_HELP.judge_timeout_s}</span>
    </>
  );
}
