import { z } from 'zod';
import { IsoDateTime } from '../validation';

/**
 * Billing's internal transfer call, used by the marketplace service for a purchase (buyer spends the price, the
 * seller earns the net, the platform keeps the fee of the spec's point 9). NOT routed by the gateway: the caller
 * signs the kit's identity header (`x-pagecast-identity`, HMAC with the shared INTERNAL_SECRET) with a service
 * identity, `{ userId: 'service:<name>', sessionId: 'service' }`; billing refuses any other caller with 403.
 *
 * `transferId` (the purchase id) is the idempotency key: the same id asked again answers the first outcome and never
 * moves points twice; the same id with a different body is refused (TRANSFER_MISMATCH).
 */
export const INTERNAL_TRANSFERS_PATH = '/internal/transfers';
/** GET `${INTERNAL_TRANSFERS_PATH}/:transferId`: what happened to a transfer (for a sweeper after a crash). */
export const internalTransferPath = (transferId: string) =>
  `${INTERNAL_TRANSFERS_PATH}/${encodeURIComponent(transferId)}`;
/** The userId prefix of a service identity in the identity header. */
export const SERVICE_IDENTITY_PREFIX = 'service:';
export const serviceIdentity = (service: string) => ({
  userId: `${SERVICE_IDENTITY_PREFIX}${service}`,
  sessionId: 'service',
});

const Id = z.string().min(1).max(200);

export const TransferRequest = z.object({
  transferId: Id,
  buyerId: Id,
  sellerId: Id,
  fileId: Id,
  /** one of the publish prices (3000, 5000, 10000): the fee table decides fee and net */
  price: z.number().int().positive(),
  /** optional: when given, must equal the fee table's figures (a caller's stale table is refused, not obeyed) */
  sellerNet: z.number().int().nonnegative().optional(),
  platformFee: z.number().int().nonnegative().optional(),
  /** the file's title: the `title` of the buyer's and seller's history rows (their reason `purchase` / `sale`) */
  description: z.string().max(300).optional(),
});
export type TransferRequest = z.infer<typeof TransferRequest>;

/**
 * The outcome of a transfer. 'applied': the points moved (once). 'refused': nothing moved and nothing ever will for
 * this id (code: INSUFFICIENT_POINTS, FREE_TIER_CANNOT_PURCHASE, CANNOT_BUY_OWN_FILE, TRANSFER_INVALID_PRICE,
 * TRANSFER_MISMATCH). 'pending': another caller is applying it right now; ask again later. 'absent' (lookup only):
 * billing never received this id, and from now on refuses it (code TRANSFER_ABANDONED), so a sweeper that reads
 * 'absent' may safely abandon the purchase.
 */
export const TransferOutcome = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('applied'),
    transferId: z.string(),
    buyerId: z.string(),
    sellerId: z.string(),
    fileId: z.string(),
    price: z.number().int(),
    fee: z.number().int(),
    net: z.number().int(),
    /** the buyer's balance right after the spend */
    buyerBalance: z.number().int().nonnegative(),
    appliedAt: IsoDateTime,
  }),
  z.object({ status: z.literal('refused'), transferId: z.string(), code: z.string(), message: z.string() }),
  z.object({ status: z.literal('pending'), transferId: z.string() }),
  z.object({ status: z.literal('absent'), transferId: z.string() }),
]);
export type TransferOutcome = z.infer<typeof TransferOutcome>;

/*
 * HTTP: `POST /internal/transfers` answers 200 with a TransferOutcome ('applied' or 'refused' or 'pending'; a
 * refusal is a business answer, not an HTTP error); 400 VALIDATION for a body that is not a TransferRequest (nothing
 * recorded); 401/403 for a missing or non-service identity. `GET /internal/transfers/:transferId` answers 200 with a
 * TransferOutcome ('applied', 'refused', 'pending' or 'absent').
 */
