// Platform objects as the API returns them (platform-api.md §4.2, §4.4): camelCase keys, nulls left out, unknown keys ignored.

/** Judge block of a behaviour (§4.2). `verified` says agreement/humanN were measured, not typed in. */
export interface JudgeWire {
  name?: string | null;
  agreement?: number | null;
  humanN?: number | null;
  lengthBias?: number | null;
  verified?: boolean | null;
}

/** One declared behaviour (§4.2 Behavior), as `GET /agents/{id}/behaviors` lists it. */
export interface BehaviorWire {
  name: string;
  testVersion?: string | null;
  n?: number | null;
  judge?: JudgeWire | null;
  noiseFloor?: number | null;
  contamination?: number | null;
  rewardIsJudge?: boolean | null;
  gradedBy?: 'program' | 'judge' | null;
  description?: string | null;
  rubric?: string | null;
}

/** A version's newest score on one behaviour (§4.2 Dashboard.versions). Scores are points out of 100. */
export interface VersionScore {
  v: string;
  score: number;
  ci?: number | null;
  n?: number | null;
  run?: string | null;
}

/** One score on a run row (§4.4 evals). */
export interface EvalWire {
  behavior?: string;
  score?: number | null;
  ci?: number | null;
  n?: number | null;
  testVersion?: string | null;
  version?: string | null;
  examples?: unknown[] | null;
  createdAt?: string | null;
}

/** A tracked run row from `GET /runs?agent=` (§4.4); only the fields the rules read are named. */
export interface RunRow {
  id?: string | null;
  agent?: string | null;
  version?: string | null;
  method?: string | null;
  record?: {
    data?: Record<string, unknown> | null;
    optimizer?: Record<string, unknown> | null;
    provenance?: { pins?: Record<string, string> | null } | null;
    [key: string]: unknown;
  } | null;
  notes?: string | null;
  archived?: boolean | null;
  createdAt?: string | null;
  updatedAt?: string | null;
  evals?: EvalWire[] | null;
}

/** The server's verdict block (§4.2 Dashboard.verdict). */
export interface VerdictWire {
  candidate?: string | null;
  serving?: string | null;
  delta?: number | null;
  excludesZero?: boolean | null;
  regressions?: number | null;
  behavior?: string | null;
  noiseFloor?: number | null;
  n?: number | null;
  judgeAgreement?: number | null;
  judgeHumanN?: number | null;
  rewardIsJudge?: boolean | null;
  gradedBy?: 'program' | 'judge' | null;
  contamination?: number | null;
  replicated?: string[] | null;
}

/** `GET /agents/{id}/dashboard?behavior=<b>` (§4.2 Dashboard), the parts the rules read. */
export interface DashboardWire {
  agent: { id: string; name?: string | null; model?: string | null; serving?: string | null; candidate?: string | null };
  behavior?: BehaviorWire | null;
  behaviors?: string[] | null;
  versions?: VersionScore[] | null;
  deltas?: Array<{ name: string; candidate?: number | null; serving?: number | null; delta?: number | null; target?: boolean | null }> | null;
  verdict?: VerdictWire | null;
}
