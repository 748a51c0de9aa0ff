import { randomUUID } from 'node:crypto';
import { type EventData, serviceIdentity, type WorkspaceRole } from '@pagecast/contracts';
import {
  callService,
  type Json,
  publishEvent,
  registration,
  testEnv,
  uniqueName,
  waitFor,
} from '@pagecast/service-kit/testing';
import { loadServiceConfig } from '../src/config';
import { createServer, type Server } from '../src/server';

export type { Json };
export { publishEvent, waitFor };

export interface TestService {
  server: Server;
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * Billing in-process against the test servers, with its own database and durables. The card provider is
 * localstripe at STRIPE_API_BASE (the test profile's port unless the environment names another).
 */
export async function startBilling(
  opts: { env?: Record<string, string>; share?: TestService } = {},
): Promise<TestService> {
  const base = testEnv() as unknown as Record<string, string>;
  const env: Record<string, string> = {
    ...(opts.share?.env ?? {
      ...base,
      PORT: '0',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      MONGO_DB: uniqueName('billing_test').replace(/-/g, '_'),
      CONSUMER_PREFIX: uniqueName('billing-test'),
      EVENTS_DELIVER: 'new',
      JOBS_INTERVAL_MS: '0',
      PAGECAST_FAILPOINTS: 'billing.clock',
      STRIPE_SECRET_KEY: 'sk_test_localstripe',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_localstripe',
      STRIPE_WEBHOOK_SECRET: `whsec_${randomUUID().replace(/-/g, '')}`,
      STRIPE_JS_URL: `${base.STRIPE_API_BASE}/js.stripe.com/v3/`,
    }),
    ...opts.env,
  };
  const server = await createServer(loadServiceConfig(env));
  return { server, env, close: () => server.close() };
}

/** Drops what a run made: database and durables. */
export async function destroyBilling(svc: TestService): Promise<void> {
  const { context } = svc.server;
  await context.nats.jsm.consumers.delete('ACCOUNT', `${svc.env.CONSUMER_PREFIX}-account`).catch(() => {});
  // dropped once its writers (consumers, jobs, outbox relay) have stopped
  await svc.server.close({ dropDatabase: true });
}

/**
 * A call as the gateway would pass it: signed identity of `who` (none when undefined): a member's id (acting in
 * their own workspace), or a member acting in `workspaceId` with `role`.
 */
export async function call(
  svc: TestService,
  who: string | { userId: string; workspaceId: string; role: WorkspaceRole } | undefined,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Json }> {
  return callService(
    svc.server.url,
    svc.env.INTERNAL_SECRET ?? '',
    typeof who === 'string' ? { userId: who } : (who ?? null),
    method,
    path,
    body,
    headers,
  );
}

/** A call as the marketplace service makes it (service identity). */
export function serviceCall(svc: TestService, method: string, path: string, body?: unknown) {
  return call(svc, serviceIdentity('marketplace').userId, method, path, body);
}

/** A member registered at account (opening 300 points, trial), once billing has opened them. */
export async function registerMember(
  svc: TestService,
  opts: { tier?: EventData<'account.user.registered.v1'>['membershipTier']; points?: number; registeredAt?: Date } = {},
): Promise<string> {
  const userId = randomUUID();
  await publishEvent(
    svc,
    'account.user.registered.v1',
    registration(userId, {
      membershipTier: opts.tier ?? 'trial',
      points: opts.points ?? 300,
      registeredAt: (opts.registeredAt ?? new Date()).toISOString(),
    }),
  );
  await waitFor(`billing opens ${userId}`, async () => {
    const m = await svc.server.context.data.memberships.current(userId);
    const b = await svc.server.context.data.ledger.balance(userId);
    return m && (opts.points === 0 || b > 0);
  });
  return userId;
}

/** Credits points directly through the ledger (as a card purchase would), for tests that need a balance. */
export async function credit(svc: TestService, memberId: string, amount: number) {
  const { postEntry } = await import('../src/use-cases/post-entry');
  await postEntry(svc.server.context, {
    accountId: memberId,
    amount,
    type: 'purchase',
    reason: { kind: 'pointsPurchase', points: amount },
    key: `test:${randomUUID()}`,
  });
}

/** The ledger's invariants for the given accounts: balances ≥ 0, each balance = sum of entries, seq gapless. */
export async function checkLedger(svc: TestService) {
  const entries = await svc.server.context.data.ledger.all();
  const byAccount = new Map<string, typeof entries>();
  for (const e of entries) byAccount.set(e.accountId, [...(byAccount.get(e.accountId) ?? []), e]);
  const balances = new Map<string, number>();
  for (const [account, list] of byAccount) {
    list.sort((a, b) => a.seq - b.seq);
    let sum = 0;
    list.forEach((e, i) => {
      sum += e.amount;
      if (e.seq !== i + 1) throw new Error(`${account}: seq ${e.seq} at position ${i + 1}`);
      if (e.balance !== sum) throw new Error(`${account}: running balance ${e.balance} ≠ sum ${sum} at seq ${e.seq}`);
      if (e.balance < 0) throw new Error(`${account}: negative balance at seq ${e.seq}`);
    });
    balances.set(account, sum);
  }
  return { entries, balances };
}
