/** What the marketplace asks billing (the adapter below speaks packages/contracts api/transfers.ts). */
export interface TransferRequest {
  /** the purchase id: billing applies one transfer per id, however often it is asked */
  transferId: string;
  buyerId: string;
  sellerId: string;
  fileId: string;
  price: number;
  sellerNet: number;
  platformFee: number;
}

export type TransferOutcome =
  | { status: 'applied'; buyerBalance: number }
  | { status: 'refused'; code: string }
  | { status: 'pending' }
  | { status: 'absent' };

export interface BillingClient {
  /** Moves the points once per transferId; a repeat answers the first outcome. Throws when billing is unreachable. */
  transfer(req: TransferRequest): Promise<TransferOutcome>;
  /** What happened to a transfer ('absent': billing never applied it and now never will). */
  lookup(transferId: string): Promise<TransferOutcome>;
}
