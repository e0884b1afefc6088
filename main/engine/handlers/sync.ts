// Handlers for sync with a While account: thin wrappers over main/sync, turning its errors into API errors.
import { ApiError } from '../../../shared/api/define';
import type { syncApi } from '../../../shared/api/sync';
import { getOutboxItem, listOutbox, nextOutboxTry, outboxCounts, releaseOutbox, type OutboxItem } from '../../rows/outbox';
import { accountStatus, logout, signup, SignupError } from '../../sync/account';
import { AutoSync, autoSyncEnabled, setAutoSync } from '../../sync/auto-sync';
import { PlatformClient } from '../../sync/client';
import { readPending } from '../../sync/credentials';
import { beginLogin, LoginError, pollLogin } from '../../sync/device-login';
import { explain, PlatformError } from '../../sync/errors';
import { drainOutbox, drainWithin } from '../../sync/outbox-runner';
import { outboxView } from '../../sync/outbox-view';
import { pullDataset } from '../../sync/pull-dataset';
import { queuePush } from '../../sync/queue-push';
import { queueResults } from '../../sync/results';
import { readCredentials } from '../../sync/credentials';
import { runStatistic } from '../../stats-workers/engine-pool';
import type { HackScanReport } from '../../../shared/stats/hack-scan';
import { rowSource } from './stats';
import { forgetWhileKey, keepWhileKey, syncKeychainKey } from '../../sync/keychain-key';
import type { EngineContext } from '../context';
import type { HandlerMap } from './types';

const autoSyncs = new WeakMap<EngineContext, AutoSync>();

function autoSync(ctx: EngineContext): AutoSync {
  let found = autoSyncs.get(ctx);
  if (!found) {
    const created = new AutoSync(ctx.db, (item) => ctx.emit('sync.changed', { item_id: item.id, state: item.state }));
    ctx.onClose(() => created.settle());
    autoSyncs.set(ctx, created);
    found = created;
  }
  found.start();
  return found;
}

/**
 * Engine open (long-lived hosts: the app, `serve`): the keychain's copy of the key brought in line, and automatic
 * sync started, draining what an earlier session left queued, when the person turned it on. Nothing is sent
 * when it is off or no key is there.
 */
export async function startSyncOnOpen(ctx: EngineContext): Promise<void> {
  await syncKeychainKey(ctx.secrets, process.env).catch(() => undefined); // a locked keychain leaves the file's key in use
  if (autoSyncEnabled(ctx.db)) autoSync(ctx).kick();
}

/** The platform's failures as API errors a person can act on; a key never appears in them. */
async function platform<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (error instanceof PlatformError) throw new ApiError(error.needsSignIn ? 'unauthorized' : 'failed', explain(error));
    if (error instanceof LoginError || error instanceof SignupError) throw new ApiError('failed', error.message);
    throw error;
  }
}

/**
 * The gate's hack scan of a dataset, for a push that asked for one (strict_hacks, or endorsed features named): run in
 * a statistics worker like any statistic, before anything is queued or sent, so a refusal costs no request.
 */
async function hackScanForPush(ctx: EngineContext, input: { dataset_id: string; gate: boolean; strict_hacks: boolean; endorsed?: string[] }): Promise<HackScanReport | null> {
  if (!input.gate || (!input.strict_hacks && !input.endorsed?.length)) return null;
  const out = await runStatistic(ctx, 'hack_scan', { rows: rowSource(ctx, input.dataset_id) }, { endorsed: input.endorsed ?? [] });
  return (out as unknown as { report: HackScanReport }).report;
}

function drained(ctx: EngineContext, result: Awaited<ReturnType<typeof drainOutbox>>) {
  ctx.emit('sync.changed', { item_id: null, state: null });
  return { ...result, outbox: outboxCounts(ctx.db), next_try_at: nextOutboxTry(ctx.db) };
}

/** The items a person asked to try again: each must exist and not be done already. */
function checkRetries(ctx: EngineContext, ids: readonly number[]): void {
  for (const id of ids) {
    const item = getOutboxItem(ctx.db, id);
    if (!item) throw new ApiError('not_found', `no outbox item ${id} (see \`while-desk outbox\`)`, 'retry');
    if (item.state === 'done') throw new ApiError('bad_input', `outbox item ${id} is done already: the platform confirmed it`, 'retry');
  }
}

export const syncHandlers: HandlerMap<keyof typeof syncApi> = {
  'sync.status': async (input, ctx) => {
    autoSync(ctx);
    const status = await accountStatus(new PlatformClient(), input.online);
    return { ...status, auto: autoSyncEnabled(ctx.db), outbox: outboxCounts(ctx.db) };
  },
  'sync.loginBegin': (input) =>
    platform(async () => {
      const { flow, resumed } = await beginLogin(new PlatformClient(), input.name);
      return { verification_uri_complete: flow.verification_uri_complete ?? flow.verification_uri ?? null, user_code: flow.user_code, expires_at: Number(flow.expires_at), resumed };
    }),
  'sync.loginPoll': (input, ctx) =>
    platform(async () => {
      const client = new PlatformClient();
      const flow = readPending(client.env);
      if (!flow) return { state: 'none' as const, message: 'No sign-in in progress: start one with `while-desk login`.', path: null };
      const polled = await pollLogin(client, flow, { timeoutS: input.wait_s });
      if (polled.state === 'pending') return { state: 'pending' as const, message: polled.message, path: null };
      const saved = readCredentials(client.env)?.api_key;
      if (saved) await keepWhileKey(ctx.secrets, saved).catch(() => undefined); // the file holds it either way
      releaseOutbox(ctx.db, false); // items that waited for a sign-in may go again
      autoSync(ctx).kick();
      return { state: 'approved' as const, message: `Logged in. Key saved to ${polled.path}`, path: polled.path };
    }),
  'sync.signup': (input) => platform(() => signup(new PlatformClient(), input.email, input.name ?? 'while-desk')),
  'sync.logout': async (_input, ctx) => {
    await forgetWhileKey(ctx.secrets);
    return logout(new PlatformClient());
  },
  'sync.push': (input, ctx) =>
    platform(async () => {
      const client = new PlatformClient();
      // Nothing is queued for an account that is not signed in: the person signs in first.
      client.requireKey();
      const { send, endorsed, ...request } = input;
      const started = performance.now();
      const hackScan = await hackScanForPush(ctx, { ...input, endorsed });
      const queued = queuePush(ctx.db, { ...request, hack_scan: hackScan }, send);
      const planned = performance.now();
      ctx.emit('sync.changed', { item_id: queued.item.id, state: queued.item.state });
      const sent = send ? drained(ctx, await drainOutbox(ctx.db, client, { ids: [queued.item.id], onChange: (item) => ctx.emit('sync.changed', { item_id: item.id, state: item.state }) })) : null;
      if (!send) autoSync(ctx).kick();
      const item = listOutbox(ctx.db).find((candidate) => candidate.id === queued.item.id) ?? queued.item;
      const gate = queued.gate ? { ...queued.gate, calibration: { ...queued.gate.calibration } } : null;
      const timings = { plan_ms: Math.round(planned - started), send_ms: Math.round(performance.now() - planned) };
      return { ...queued, gate, item: outboxView(item), sent, timings };
    }),
  'sync.pushResults': (input, ctx) =>
    platform(async () => {
      const client = new PlatformClient();
      client.requireKey();
      const { send, ...request } = input;
      const queued = await queueResults(ctx.db, request);
      const onChange = (item: OutboxItem) => ctx.emit('sync.changed', { item_id: item.id, state: item.state });
      const sent = send ? drained(ctx, await drainOutbox(ctx.db, client, { ids: [queued.item.id], onChange })) : null;
      if (!send) autoSync(ctx).kick();
      return { ...queued, item: outboxView(getOutboxItem(ctx.db, queued.item.id) ?? queued.item), sent };
    }),
  'sync.now': (input, ctx) =>
    platform(async () => {
      const client = new PlatformClient();
      client.requireKey();
      checkRetries(ctx, input.retry);
      releaseOutbox(ctx.db, input.retry_failed, input.retry);
      const onChange = (item: OutboxItem) => ctx.emit('sync.changed', { item_id: item.id, state: item.state });
      return drained(ctx, await drainWithin(ctx.db, client, input.wait_s * 1000, { onChange }));
    }),
  'sync.outbox': (input, ctx) => listOutbox(ctx.db, input.limit).map(outboxView),
  'sync.datasets': () =>
    platform(async () => {
      const listed = await new PlatformClient().call<{ datasets?: Array<Record<string, unknown>> }>('data', 'GET', '/datasets');
      return listed?.datasets ?? [];
    }),
  'sync.pull': (input, ctx) =>
    platform(async () => {
      const result = await pullDataset(ctx.db, new PlatformClient(), input.remote_id, input.name);
      if (result.dataset_id) ctx.emit('datasets.changed', { id: result.dataset_id });
      return result;
    }),
  'sync.setAuto': (input, ctx) => {
    setAutoSync(ctx.db, input.enabled);
    const auto = autoSync(ctx);
    if (input.enabled) auto.kick();
    else auto.stop();
    return { auto: input.enabled };
  },
};
