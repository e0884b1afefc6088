// The fixed texts of the eight eval-health checks (platform-api.md §5.2): rule, citation and the fix to run.
// Free text, in the app's own words; the fix names the SDK call or the while-desk command that does it.

export const EVAL_RULES = { min_n: 50, min_agreement: 0.8, min_human_n: 50, max_length_bias: 0.3, saturated_base: 95 } as const;

const CITE = {
  evaluation: 'rlhfbook.com, Evaluation',
  miller: 'Miller 2024, arXiv 2411.00640',
  zheng: 'Zheng et al. 2023, arXiv 2306.05685',
  dubois: 'Dubois et al. 2024, arXiv 2404.04475',
  gao: 'Gao et al. 2022, arXiv 2210.10760',
  dapo: 'DAPO, arXiv 2503.14476',
};

export const CHECK_TEXTS = {
  frozen: {
    label: 'frozen',
    rule: 'A held-out set is a named, frozen artifact: two scores compare only under the same name.',
    cite: CITE.evaluation,
    fix: 'Behavior(name, test_version="v1"), and a new name whenever the asks change',
  },
  size: {
    label: 'size',
    rule: `At least ${EVAL_RULES.min_n} held-out items; a gap is real only past sqrt(ci_a² + ci_b²), so the interval sets what the test can resolve.`,
    cite: CITE.miller,
    fix: 'wai.holdout_size(effect, rows=) (while-desk stats holdout-size) says how many asks a gain needs',
  },
  judge: {
    label: 'judge',
    rule: `The judge agrees with people at least ${EVAL_RULES.min_agreement} on at least ${EVAL_RULES.min_human_n} hand labels, measured (Judge(verified=True)); a program grader has no judge to check.`,
    cite: CITE.zheng,
    fix: 'label rows by hand, run judge_trust on them, then post Judge(agreement=, human_n=, verified=True)',
  },
  length: {
    label: 'length',
    rule: `The correlation of score with reply length stays within ±${EVAL_RULES.max_length_bias}; past it the judge rewards words.`,
    cite: CITE.dubois,
    fix: 'judge_trust reports length_sensitivity; post it as Judge(length_bias=)',
  },
  noise: {
    label: 'noise floor',
    rule: 'Score one version twice on the same set; a gap inside that spread is not a result (held-constant evals move 0.25 to 1.5 points).',
    cite: CITE.evaluation,
    fix: 'tracked.noise_floor(behavior, rows_a, rows_b) from two or more scorings of one version',
  },
  contamination: {
    label: 'clean',
    rule: 'No held-out item may sit in the training data; the count found is the proof.',
    cite: CITE.evaluation,
    fix: 'wai.decontaminate(train, holdout), then Behavior(contamination=<dropped>)',
  },
  reward: {
    label: 'reward ≠ judge',
    rule: 'A judge that is also the training reward gets gamed and cannot see it happen.',
    cite: CITE.gao,
    fix: 'score with a program or another model, and declare Behavior(reward_is_judge=False)',
  },
  canfail: {
    label: 'can fail',
    rule: `A base under ${EVAL_RULES.saturated_base} points leaves room to move; asks every version passes carry no signal.`,
    cite: CITE.dapo,
    fix: 'add asks the base can fail: simulate(hard_share=) or harder stances',
  },
} as const;

export type CheckKey = keyof typeof CHECK_TEXTS;
export const CHECK_ORDER: CheckKey[] = ['frozen', 'size', 'judge', 'length', 'noise', 'contamination', 'reward', 'canfail'];
