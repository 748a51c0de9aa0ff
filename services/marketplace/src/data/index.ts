import type mongoose from 'mongoose';
import { createLeases, type Leases } from './leases';
import { createListings, type Listings } from './listings';
import { createMembers, type Members } from './members';
import { createModels, type Models } from './models';
import { createPurchases, type Purchases } from './purchases';

export type * from './models';
export type { Listings } from './listings';
export type { Members } from './members';
export type { Purchases } from './purchases';
export type { Leases } from './leases';

/** Mongoose models and repositories; nothing else touches the driver. */
export interface Repositories {
  models: Models;
  listings: Listings;
  members: Members;
  purchases: Purchases;
  leases: Leases;
}

export function createRepositories(conn: mongoose.Connection): Repositories {
  const models = createModels(conn);
  return {
    models,
    listings: createListings(models),
    members: createMembers(models),
    purchases: createPurchases(models),
    leases: createLeases(models),
  };
}

/** Builds the indexes (the unique claim key is what makes a purchase happen once); safe from several processes. */
export async function ensureIndexes(repos: Repositories): Promise<void> {
  await Promise.all(Object.values(repos.models).map((m: { createIndexes(): Promise<unknown> }) => m.createIndexes()));
}
