// Fleets at scale: an operator pairs many displays in one call. Each display still asks for its own code
// and collects its own device token (POST /api/screens/pairing, then its poll): only the claims are batched. Every
// code counts as one attempt against the member's pairing limit (PAIR_ATTEMPT_RATE_MAX per minute), as if typed one
// by one; a code claims at most one screen (the same insert-once claim as POST /api/screens).
import { z } from 'zod';
import { defineRoutes } from '../route-def';
import { Id } from '../validation';
import { PairingCode, SCREEN_DEFAULT_TIME_ZONE, ScreenName, TimeZone } from './screens';

/** Codes one bulk pairing may claim. */
export const BULK_PAIRING_MAX = 100;

/** POST /api/screens/bulk-pairing: the codes shown on the displays, each with its screen's name. */
export const BulkPairingRequest = z.object({
  screens: z
    .array(z.object({ code: PairingCode, name: ScreenName }))
    .min(1)
    .max(BULK_PAIRING_MAX),
  /** every new screen's time zone */
  timeZone: TimeZone.default(SCREEN_DEFAULT_TIME_ZONE),
});
export type BulkPairingRequest = z.infer<typeof BulkPairingRequest>;

/**
 * One outcome per code, in the order asked: paired (the new screen), or refused with PAIRING_CODE_INVALID (wrong,
 * expired, already used, or named twice in the call: no hint which), which pairs nothing.
 */
export const BulkPairingOutcome = z.discriminatedUnion('status', [
  z.object({ code: z.string(), status: z.literal('paired'), screenId: Id, name: z.string() }),
  z.object({ code: z.string(), status: z.literal('refused'), error: z.literal('PAIRING_CODE_INVALID') }),
]);
export type BulkPairingOutcome = z.infer<typeof BulkPairingOutcome>;
export const BulkPairingResult = z.object({ results: z.array(BulkPairingOutcome) });
export type BulkPairingResult = z.infer<typeof BulkPairingResult>;

export const screenScaleRoutes = defineRoutes([
  {
    id: 'bulkPairScreens',
    method: 'post',
    path: '/api/screens/bulk-pairing',
    service: 'screens',
    auth: 'session',
    action: 'screens.manage',
    summary:
      'The member claims up to 100 pairing codes at once (each counts against the pairing-attempt limit; RATE_LIMITED refuses the whole call)',
    body: BulkPairingRequest,
    response: BulkPairingResult,
  },
]);
