// Sync with a While account: sign in (device flow), account status, push a dataset, the outbox and pull.
import { z } from '../schema/zod';
import { method } from './define';

export const outboxState = z.enum(['queued', 'sending', 'done', 'failed']);

export const outboxItem = z.object({
  id: z.number().int(),
  kind: z.string(),
  dataset_id: z.string().nullable(),
  state: outboxState,
  /** A queued item waiting for the person: sign in again, or billing. */
  blocked: z.enum(['sign_in', 'billing']).nullable(),
  attempts: z.number().int(),
  last_error: z.string().nullable(),
  /** Tries in a row that failed the same way; past a few (main/sync/outbox-runner.ts) the item stops retrying. */
  same_failures: z.number().int(),
  next_try_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string().nullable(),
  /** What the item sends, in a line: `dataset ds-1 as "airline-v3" (train)`. */
  summary: z.string(),
  /** The platform's answer once done (the finalized dataset entry, ...). */
  result: z.record(z.string(), z.unknown()).nullable(),
});
export type OutboxItemView = z.infer<typeof outboxItem>;

export const outboxCounts = z.object({
  queued: z.number().int(),
  sending: z.number().int(),
  done: z.number().int(),
  failed: z.number().int(),
  blocked: z.number().int(),
});

export const accountStatus = z.object({
  api_url: z.string(),
  platform_url: z.string(),
  configured: z.boolean(),
  source: z.string().nullable(),
  path: z.string(),
  /** Masked: the first 7 characters, `...`, the last 4. */
  key: z.string().nullable(),
  name: z.string().nullable(),
  pending: z.boolean(),
  tier: z.string().nullable(),
  trial_expires_at: z.string().nullable(),
  limits: z.record(z.string(), z.unknown()).nullable(),
  usage: z.record(z.string(), z.unknown()).nullable(),
  auto: z.boolean(),
  outbox: outboxCounts,
});
export type AccountStatusView = z.infer<typeof accountStatus>;

export const drainResult = z.object({
  attempted: z.number().int(),
  done: z.number().int(),
  failed: z.number().int(),
  waiting: z.number().int(),
  blocked: z.object({ reason: z.enum(['sign_in', 'billing']), message: z.string() }).nullable(),
  outbox: outboxCounts,
  /** When the first item that waits on a back-off is tried next (ISO time), or null when none waits. */
  next_try_at: z.string().nullable(),
});
export type DrainResultView = z.infer<typeof drainResult>;

/** The publish gate's report (shared/platform publishGate, platform-api §3.5); its parts pass through as computed. */
const gateReport = z
  .object({
    ok: z.boolean(),
    rl_shaped: z.boolean(),
    mode: z.string().nullable(),
    refusal: z.string().nullable(),
    warnings: z.array(z.string()),
    calibration: z.object({ n_tasks: z.number(), n_rows: z.number(), n_stamped: z.number() }).passthrough(),
  })
  .passthrough();

const remoteId = z.string().min(1, 'a platform dataset id is required (ds_...)').max(200);

export const syncApi = {
  'sync.status': method(
    z.object({ online: z.boolean().default(true) }).default({ online: true }),
    accountStatus,
    'Account and outbox: where the key comes from (masked), tier, limits and usage (one GET /me when online and signed in)',
  ),
  'sync.loginBegin': method(
    z.object({ name: z.string().min(1).max(50).optional() }).default({}),
    z.object({ verification_uri_complete: z.string().nullable(), user_code: z.string(), expires_at: z.number(), resumed: z.boolean() }),
    'Start (or resume) the device sign-in: the link and code to show the person',
  ),
  'sync.loginPoll': method(
    z.object({ wait_s: z.number().min(0).max(900).default(0) }).default({ wait_s: 0 }),
    z.object({ state: z.enum(['approved', 'pending', 'none']), message: z.string(), path: z.string().nullable() }),
    'Poll the pending sign-in for up to wait_s seconds; approved saves the key in credentials.json',
  ),
  'sync.signup': method(
    z.object({ email: z.string().min(1).max(320), name: z.string().min(1).max(50).optional() }),
    z.object({ path: z.string(), user_id: z.string().nullable(), tier: z.string().nullable() }),
    'Create a trial account and save its key',
  ),
  'sync.logout': method(z.object({}).default({}), z.object({ removed: z.boolean() }), 'Forget the saved key (credentials.json and any pending sign-in); nothing is sent'),
  'sync.push': method(
    z.object({
      dataset_id: z.string().min(1, 'a dataset id is required'),
      name: z.string().min(1).max(200),
      purpose: z.enum(['train', 'holdout', 'eval']).optional(),
      mode: z.enum(['explore', 'sft', 'rl', 'adaptive']).optional(),
      agent: z.string().min(1).max(200).optional(),
      description: z.string().max(4000).optional(),
      parent: remoteId.optional(),
      holdout: z.number().gt(0).lt(1).optional(),
      gate: z.boolean().default(true),
      /** What the reward should track (hack_scan's feature names, as substrings), for the gate's hack scan. */
      endorsed: z.array(z.string().min(1, 'an endorsed pattern cannot be empty')).max(100).optional(),
      /** Refuse RL rows whose hack scan says reward_hack; checked before anything is queued or sent. Needs the gate. */
      strict_hacks: z.boolean().default(false),
      /** false: queue it only (automatic sync or "Sync now" sends it). */
      send: z.boolean().default(true),
    }),
    z.object({ item: outboxItem, rows: z.number().int(), holdout_rows: z.number().int(), holdout_tasks: z.number().int(), gate: gateReport.nullable(), sent: drainResult.nullable(), timings: z.object({ plan_ms: z.number(), send_ms: z.number() }) }),
    'Push a dataset to the account: gate and split locally, queue it in the outbox, and send it now',
  ),
  'sync.pushResults': method(
    z.object({
      dataset_id: z.string().min(1, 'a dataset or run id is required'),
      agent: z.string().min(1).max(200),
      version: z.string().min(1).max(40, 'a version is at most 40 characters (§4.2 RunSpec.version)'),
      behavior: z.string().min(1).max(64).default('policy'),
      test_version: z.string().min(1).max(200).optional(),
      /** The agent's experiment block (§4.2 Experiment): a question, and what was expected and how it is decided. */
      experiment: z
        .object({
          question: z.string().min(1).max(4096),
          hypothesis: z.string().max(4096).optional(),
          method: z.string().max(4096).optional(),
          measure: z.string().max(4096).optional(),
          decide: z.string().max(4096).optional(),
          notes: z.string().max(4096).optional(),
        })
        .optional(),
      /** The run's notes, markdown (§4.3 run.note). */
      notes: z.string().max(8192, 'notes are at most 8192 characters (§4.3 run.note)').optional(),
      send: z.boolean().default(true),
    }),
    z.object({
      item: outboxItem,
      score: z.object({ score: z.number(), ci: z.number(), n: z.number().int() }),
      graded: z.number().int(),
      /** What else the run carries: the noise floor (a `--runs N` run), the judge's agreement with gold labels, the figures. */
      measures: z.object({
        noise_floor: z.number().nullable(),
        judge: z.object({ agreement: z.number(), humanN: z.number().int(), verified: z.literal(true) }).nullable(),
        figures: z.array(z.object({ name: z.string(), caption: z.string(), figure: z.object({ data: z.array(z.record(z.string(), z.unknown())), layout: z.record(z.string(), z.unknown()) }) })),
        notes: z.array(z.string()),
      }),
      sent: drainResult.nullable(),
    }),
    'Post a graded dataset or run as a tracked run: the agent, the behaviour, pass@1 in points with its interval, the graded rows',
  ),
  'sync.now': method(
    z
      .object({
        retry_failed: z.boolean().default(false),
        /** Items to try again whatever stopped them (failed, or stopped after failing the same way again and again). */
        retry: z.array(z.number().int().positive()).max(1000).default([]),
        /** Keep trying items that wait on a back-off for up to this many seconds (0: one pass). */
        wait_s: z.number().min(0).max(86_400).default(0),
      })
      .default({ retry_failed: false, retry: [], wait_s: 0 }),
    drainResult,
    'Sync now: send every queued item (with retry_failed, failed ones again too; retry names items to try again), for up to wait_s seconds',
  ),
  'sync.outbox': method(z.object({ limit: z.number().int().min(1).max(5000).default(500) }).default({ limit: 500 }), z.array(outboxItem), 'The outbox, newest first, with each item\'s state'),
  'sync.datasets': method(z.object({}).default({}), z.array(z.record(z.string(), z.unknown())), 'The account\'s datasets on the platform, newest first'),
  'sync.pull': method(
    z.object({ remote_id: remoteId, name: z.string().min(1).max(200).optional() }),
    z.object({ dataset_id: z.string().nullable(), rows_imported: z.number().int(), rows_skipped: z.number().int(), errors: z.array(z.object({ line: z.number().int(), message: z.string() })), parts: z.number().int() }),
    'Bring a platform dataset into the local database',
  ),
  'sync.setAuto': method(z.object({ enabled: z.boolean() }), z.object({ auto: z.boolean() }), 'Turn automatic sync on or off (off until the person turns it on)'),
} as const;

export const syncEvents = {
  'sync.changed': z.object({ item_id: z.number().int().nullable(), state: outboxState.nullable() }),
} as const;
