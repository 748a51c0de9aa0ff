import { type Claims, createClaims } from '@pagecast/service-kit';
import type mongoose from 'mongoose';
import { createLedger, type Ledger } from './ledger';
import { createMemberships, type Memberships } from './memberships';
import { createModels } from './models';
import { createTransfers, type Transfers } from './transfers';

export type { AppendInput, AppendResult, Ledger } from './ledger';
export type { Memberships, Versioned } from './memberships';
export type { LedgerEntryDoc, MembershipDoc, TransferDoc } from './models';
export type { Transfers } from './transfers';

/** Mongoose models and repositories; nothing else touches the driver. */
export interface Repositories {
  ledger: Ledger;
  memberships: Memberships;
  transfers: Transfers;
  /** insert-once facts and short leases (kit) */
  claims: Claims;
}

/**
 * Builds the indexes before the service answers: the unique ones (entry slot, idempotency key, plan version) are what
 * makes points move once, so a service must not write before they exist (mongoose would build them in the background).
 */
export async function ensureIndexes(conn: mongoose.Connection): Promise<void> {
  const models = createModels(conn);
  await Promise.all([
    models.ledger.init(),
    models.ledgerHeads.init(),
    models.memberships.init(),
    models.transfers.init(),
  ]);
  await createClaims(conn).model.init();
}

export function createRepositories(conn: mongoose.Connection): Repositories {
  const models = createModels(conn);
  return {
    ledger: createLedger(models),
    memberships: createMemberships(models),
    transfers: createTransfers(models),
    claims: createClaims(conn),
  };
}
