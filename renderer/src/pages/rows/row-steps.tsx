// The steps of a row: user turns, tool calls with their arguments and results, agent text.
import { JsonView } from '../../components/json-view';

type Step = Record<string, unknown>;

function StepItem({ step, index }: { step: Step; index: number }) {
  if (typeof step.user === 'string' && step.user) {
    return (
      <li className="step user">
        <div className="step-kind">User</div>
        <pre className="text">{step.user}</pre>
      </li>
    );
  }
  if (typeof step.tool === 'string' && step.tool) {
    return (
      <li className="step tool" data-testid="tool-step">
        <div className="step-kind">
          Tool call <strong className="mono">{step.tool}</strong> <span className="muted">step {index + 1}</span>
        </div>
        {typeof step.text === 'string' && step.text && <pre className="text">{step.text}</pre>}
        <JsonView label="Arguments" value={step.arguments ?? {}} />
        <JsonView label="Result" value={step.result} />
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

export function RowSteps({ steps }: { steps: unknown[] }) {
  return (
    <section className="row-section">
      <h3>Steps ({steps.length})</h3>
      {steps.length === 0 ? (
        <p className="muted">No steps: the agent answered directly.</p>
      ) : (
        <ol className="steps">
          {steps.map((step, index) => (
            <StepItem key={index} step={step && typeof step === 'object' ? (step as Step) : { text: String(step) }} index={index} />
          ))}
        </ol>
      )}
    </section>
  );
}
