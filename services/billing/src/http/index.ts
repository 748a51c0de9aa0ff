import {
  BillingConfig,
  ConfirmPaymentRequest,
  CreatePaymentIntentRequest,
  constants,
  PointsPurchaseRequest,
  ScheduleDowngradeRequest,
  SERVICE_IDENTITY_PREFIX,
  TransferRequest,
  UpgradeMembershipRequest,
} from '@pagecast/contracts';
import { AppError, auditActor, parseWith, requireActor, requireIdentity, testClockRouter } from '@pagecast/service-kit';
import { type Request, Router } from 'express';
import { z } from 'zod';
import type { ServiceContext } from '../context';
import { cancelDowngrade } from '../use-cases/cancel-downgrade';
import { confirmPayment, createPaymentIntent, handlePaymentWebhook, recordPurchase } from '../use-cases/card-payments';
import { getMembership } from '../use-cases/get-membership';
import { getPointsHistory } from '../use-cases/get-points-history';
import { getPointsSummary } from '../use-cases/get-points-summary';
import { runJobs } from '../use-cases/run-jobs';
import { scheduleDowngrade } from '../use-cases/schedule-downgrade';
import { lookupTransfer, transferPoints } from '../use-cases/transfer-points';
import { upgradeMembership } from '../use-cases/upgrade-membership';

/**
 * A member's call (a service identity is no member), allowed `action`, and whose ledger it concerns: the workspace's
 * (its owner's: the owner pays for purchases and plans, and their plan is the workspace's) or, for `personal`, the
 * caller's own (points bought by card go to the buyer's own ledger).
 */
function member(req: Request, action: 'personal' | 'billing.read' | 'billing.spend'): string {
  const actor = requireActor(req, action);
  if (actor.userId.startsWith(SERVICE_IDENTITY_PREFIX)) throw new AppError('FORBIDDEN');
  return action === 'personal' ? actor.userId : actor.workspaceId;
}

/**
 * An internal call: only another service's identity (signed with INTERNAL_SECRET; the gateway never routes /internal).
 * A service acts in no workspace and has no role: the identity alone decides, no policy action.
 */
function service(req: Request): string {
  const { userId } = requireIdentity(req);
  if (!userId.startsWith(SERVICE_IDENTITY_PREFIX)) throw new AppError('FORBIDDEN');
  return userId;
}

const noStore = (res: import('express').Response) => res.set('Cache-Control', 'no-store');

/** The service's HTTP routes (paths as in the contracts' route table, validated with its schemas). */
export function createRouter(ctx: ServiceContext): Router {
  const router = Router();
  const { config } = ctx;

  router.get('/api/billing/config', (_req, res) => {
    const enabled = Boolean(ctx.cards && config.STRIPE_PUBLISHABLE_KEY);
    res.json(
      BillingConfig.parse({
        cardPaymentsEnabled: enabled,
        publishableKey: enabled ? (config.STRIPE_PUBLISHABLE_KEY ?? null) : null,
        stripeJsUrl: config.STRIPE_JS_URL,
        packages: [...constants.pointPackages],
      }),
    );
  });

  router.get('/api/points/history', async (req, res) => {
    const memberId = member(req, 'billing.read');
    noStore(res).json(await getPointsHistory(ctx, memberId));
  });
  router.get('/api/points/summary', async (req, res) => {
    const memberId = member(req, 'billing.read');
    noStore(res).json(await getPointsSummary(ctx, memberId));
  });

  router.post('/api/create-payment-intent', async (req, res) => {
    const memberId = member(req, 'personal');
    const body = parseWith(CreatePaymentIntentRequest, req.body);
    noStore(res).json(await createPaymentIntent(ctx, memberId, body.amount));
  });
  router.post('/api/points/purchase', async (req, res) => {
    const memberId = member(req, 'personal');
    const body = parseWith(PointsPurchaseRequest, req.body);
    noStore(res).json(await recordPurchase(ctx, memberId, body, auditActor(req).address));
  });
  router.post('/api/points/confirm-payment', async (req, res) => {
    const memberId = member(req, 'personal');
    const body = parseWith(ConfirmPaymentRequest, req.body);
    noStore(res).json(await confirmPayment(ctx, memberId, body, auditActor(req).address));
  });
  router.post('/api/payments/webhook', async (req, res) => {
    const signature = req.headers['stripe-signature'];
    const raw = req.rawBody ?? Buffer.alloc(0);
    res.json(await handlePaymentWebhook(ctx, raw, typeof signature === 'string' ? signature : undefined));
  });

  router.get('/api/membership/status', async (req, res) => {
    const memberId = member(req, 'billing.read');
    noStore(res).json(await getMembership(ctx, memberId));
  });
  router.post('/api/membership/upgrade', async (req, res) => {
    const memberId = member(req, 'billing.spend');
    const body = parseWith(UpgradeMembershipRequest, req.body);
    noStore(res).json(await upgradeMembership(ctx, memberId, body.membershipTier, body.expectedCost, auditActor(req)));
  });
  router.post('/api/membership/schedule-downgrade', async (req, res) => {
    const memberId = member(req, 'billing.spend');
    const body = parseWith(ScheduleDowngradeRequest, req.body);
    noStore(res).json(await scheduleDowngrade(ctx, memberId, body.targetTier, auditActor(req)));
  });
  router.delete('/api/membership/cancel-downgrade', async (req, res) => {
    const memberId = member(req, 'billing.spend');
    noStore(res).json(await cancelDowngrade(ctx, memberId, auditActor(req)));
  });

  // --- internal (marketplace), never routed by the gateway
  router.post('/internal/transfers', async (req, res) => {
    service(req);
    const body = parseWith(TransferRequest, req.body);
    noStore(res).json(await transferPoints(ctx, body));
  });
  router.get('/internal/transfers/:transferId', async (req, res) => {
    service(req);
    const id = parseWith(z.string().min(1).max(200), req.params.transferId);
    noStore(res).json(await lookupTransfer(ctx, id));
  });

  // Test only (failpoint billing.clock, refused in production): set the clock, run the jobs now.
  if (ctx.clock.adjustable) router.use(testClockRouter(ctx.clock, { runJobs: () => runJobs(ctx, { force: true }) }));
  return router;
}
