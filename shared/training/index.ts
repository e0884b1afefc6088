// The training export, in one place: export_dataset and training_rows, the TRL shapes, preference pairs and their
// export, and the selectors (select_for_sft, select_for_rl, optimize). sdk-semantics §8.3; docs/training-export.md.
export { exportDatasetRows, groupTallyOf, trainingLine, type ExportResult } from './export-dataset';
export { DEFAULT_EXPORT, exportSettings, TrainingValueError, type ExportSettings } from './export-settings';
export { TrainingExporter, TRL_MASK_COMPLETION, TRL_MASK_EVERY_TOKEN, type ExportReport, type ExporterState } from './exporter';
export { exportPreferenceRows, type PreferenceSettings } from './export-preference';
export { GroupFieldsMap, GroupTally, type GroupFields, type GroupLookup } from './groups';
export { buildPreferencePairs, choosePairs, pairCandidate, pairOf, pairsReport, type PairCandidate, type PairChoice, type PairOptions } from './preference-pairs';
export { leakFact, LeakTally } from './privileged';
export { RoundtripCheck, EXPORT_FORMATS, rowTurns, type ExportFormat } from './roundtrip';
export { rlDetails, rlFacts, rlPrepared, TRUNCATED_POLICIES, type RlDetails, type RlFacts, type TruncatedPolicy } from './rl-facts';
export { selectForRl, RL_ORDERS, type RlOptions } from './select-rl';
export { selectForSft, sftFacts, SFT_MIN_REWARD_DEFAULT, SFT_SELECTIONS, type SftFacts, type SftOptions } from './select-sft';
export { optimizeRows, selectForRlRows, selectForSftRows, type OptimizeOptions } from './select-rows';
export { CARRY_KEYS, entryTaskKey, trainingEntries } from './training-row';
export { toTrl, TRL_KINDS, type TrlKind } from './trl';
export { lossMask, MASK_MODES, type MaskMode } from './wire';
export { useSha256 } from './digest';
