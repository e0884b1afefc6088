// The platform rules the SDK computes client-side (platform-api.md §3.3, §3.5, §5.1-5.4, §6), as pure functions.
export * from './types';
export { verdict, resolveVerdict, type Verdict, type VerdictResult, type VerdictOptions } from './verdict';
export { verdictLine } from './verdict-line';
export { evalChecks, type EvalCheck, type EvalHealth } from './eval-checks';
export { brief, RUNS_PAGE_URL, type Brief, type Step } from './brief';
export { noiseFloor, type NoiseFloorOptions, type NoiseFloorReport, type NoiseFloorResult } from './noise-floor';
export { sweepReport, clears, MIN_ASKS, type SweepReport, type SweepVariant, type SweepVariantInput, type SweepOptions } from './sweep-report';
export { sweepLabels, checkLabels, LABEL_MAX, type SweepLabels } from './sweep-labels';
export { makeHarness, harnessWire, harnessFingerprint, toolName, promptOf, type Harness, type HarnessInput } from './harness';
export { publishGate, gateReport, gateRefusal, judgeTrustOf, isRlShaped, DEFAULT_BAND, type GateInput, type PublishGateOptions, type PublishGateReport, type PublishGateResult } from './publish-gate';
export { policyRef, stampRow, type Calibration, type PolicyRef, type PolicyInput } from './calibration';
export { holdoutSplit, holdoutBucket, type HoldoutSplit } from './holdout-split';
export { checkBehaviorName, behaviorBody } from './behavior-wire';
export { liveRuns, scoresFor } from './newest-scores';
export { PublishGateError, StatsValueError } from './errors';
