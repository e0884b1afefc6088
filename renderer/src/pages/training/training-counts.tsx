// What the export will do, kept current as the settings change: each stage's rows in and out, what each rule
// dropped, what the tool-output cut saves, and the first three rows of the file as they will be written.
import type { TrainingResult } from '../../../../shared/api/training';
import { formatCount } from '../../components/format';

const STAGE_LABELS: Record<string, string> = { read: 'Rows in the dataset', decontaminate: 'After decontamination', min_reward: 'At or above min reward', select: 'Selected', export: 'Rows written' };

export function TrainingCounts({ result }: { result: TrainingResult }) {
  const c = result.counts;
  const rules = Object.entries(c.dropped_by_rule);
  return (
    <div className="training-counts" data-testid="train-counts">
      <table className="plain">
        <tbody>
          {result.stages.map((s) => (
            <tr key={s.stage}>
              <th>{STAGE_LABELS[s.stage] ?? s.stage}</th>
              <td className="num" data-testid={`train-stage-${s.stage}`}>{formatCount(s.rows_out)}</td>
            </tr>
          ))}
          <tr>
            <th>Contaminated (in an eval set)</th>
            <td className="num" data-testid="train-contaminated">{formatCount(c.contaminated)}</td>
          </tr>
          {c.below_min_reward > 0 && (
            <tr>
              <th>Below min reward</th>
              <td className="num">{formatCount(c.below_min_reward)}</td>
            </tr>
          )}
          {rules.map(([rule, n]) => (
            <tr key={rule}>
              <th>Dropped: <span className="mono">{rule}</span></th>
              <td className="num">{formatCount(n)}</td>
            </tr>
          ))}
          <tr>
            <th>Tool output cut</th>
            <td className="num" data-testid="train-tool-cut">
              {formatCount(c.tool_output_truncated)} messages, {formatCount(c.tool_output_chars_cut)} chars (about {formatCount(c.tool_output_tokens_cut)} tokens)
            </td>
          </tr>
        </tbody>
      </table>
      <p className="muted">Loss: {String(result.report.mask_mode)}</p>
      {((result.report.warnings as string[] | undefined) ?? []).map((w) => (
        <p key={w} className="muted">Note: {w}</p>
      ))}
    </div>
  );
}

export function TrainingSamples({ samples }: { samples: string[] }) {
  if (!samples.length) return <p className="muted">No row would be written.</p>;
  return (
    <div className="training-samples" data-testid="train-samples">
      {samples.map((line, i) => (
        <details key={i} open={i === 0}>
          <summary>Row {i + 1} as written</summary>
          <pre className="text" data-testid="train-sample">{line}</pre>
        </details>
      ))}
    </div>
  );
}
