// The steps of a row: user turns, tool calls with their arguments and results, agent text. Long arguments and
// results start folded; a tool the row's fault plan (`faults`, {tool: {mode, rate?}}) names is marked as a fault.
import { JsonView, prettyJson } from '../../components/json-view';

type Step = Record<string, unknown>;
type Faults = Record<string, unknown>;

/** Arguments or results longer than this start folded. */
const FOLD_CHARS = 600;

function faultMode(faults: Faults | undefined, tool: string): string | null {
  const plan = faults?.[tool];
  if (!plan || typeof plan !== 'object') return null;
  const mode = (plan as Record<string, unknown>).mode;
  return typeof mode === 'string' && mode ? mode : 'fault';
}

function Folded({ label, value }: { label: string; value: unknown }) {
  return <JsonView label={label} value={value} open={prettyJson(value).length <= FOLD_CHARS} />;
}

function StepItem({ step, index, faults }: { step: Step; index: number; faults?: Faults }) {
  if (typeof step.user === 'string' && step.user) {
    return (
      <li className="step user">
        <div className="step-kind">User</div>
        <pre className="text">{step.user}</pre>
      </li>
    );
  }
  if (typeof step.tool === 'string' && step.tool) {
    const fault = faultMode(faults, step.tool);
    return (
      <li className={`step tool${fault ? ' fault' : ''}`} data-testid="tool-step" data-fault={fault ?? undefined}>
        <div className="step-kind">
          Tool call <strong className="mono">{step.tool}</strong> <span className="muted">step {index + 1}</span>
          {fault && <span className="fault-badge" role="note">Injected fault: {fault}</span>}
        </div>
        {typeof step.text === 'string' && step.text && <pre className="text">{step.text}</pre>}
        <Folded label="Arguments" value={step.arguments ?? {}} />
        <Folded label="Result" value={step.result} />
      </li>
    );
  }
  return (
    <li className="step agent">
      <div className="step-kind">Agent</div>
      {typeof step.text === 'string' ? <pre className="text">{step.text || '(empty)'}</pre> : <JsonView label="Step" value={step} />}
    </li>
  );
}

export function RowSteps({ steps, faults }: { steps: unknown[]; faults?: Faults }) {
  return (
    <section className="row-section">
      <h3>Steps ({steps.length})</h3>
      {steps.length === 0 ? (
        <p className="muted">No steps: the agent answered directly.</p>
      ) : (
        <ol className="steps">
          {steps.map((step, index) => (
            <StepItem key={index} step={step && typeof step === 'object' ? (step as Step) : { text: String(step) }} index={index} faults={faults} />
          ))}
        </ol>
      )}
    </section>
  );
}
