import type { TransferOutcome, TransferRequest } from '@pagecast/contracts';

export type { TransferOutcome, TransferRequest };

/** What the marketplace asks billing (packages/contracts api/transfers.ts); the HTTP adapter is billing-http.ts. */
export interface BillingClient {
  /** Moves the points once per transferId; a repeat answers the first outcome. Throws when billing is unreachable. */
  transfer(req: TransferRequest): Promise<TransferOutcome>;
  /** What happened to a transfer ('absent': billing never received it, and now refuses it for good). */
  lookup(transferId: string): Promise<TransferOutcome>;
}
