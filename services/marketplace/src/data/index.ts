import { type Claims, createClaims } from '@pagecast/service-kit';
import type mongoose from 'mongoose';
import { createListingIndex } from './listing-index';
import { createListings, type Listings } from './listings';
import { createMembers, type Members } from './members';
import { createModels, type Models } from './models';
import { createPurchases, type Purchases } from './purchases';

export type * from './models';
export type { Listings } from './listings';
export type { Members } from './members';
export type { Purchases } from './purchases';

/** Mongoose models and repositories; nothing else touches the driver. */
export interface Repositories {
  models: Models;
  listings: Listings;
  members: Members;
  purchases: Purchases;
  /** the kit's insert-once claims: the periodic jobs' run-once lease */
  claims: Claims;
}

export function createRepositories(conn: mongoose.Connection): Repositories {
  const models = createModels(conn);
  return {
    models,
    listings: createListings(models, createListingIndex(models)),
    members: createMembers(models),
    purchases: createPurchases(models),
    claims: createClaims(conn),
  };
}

/** Builds the indexes (the unique claim key is what makes a purchase happen once); safe from several processes. */
export async function ensureIndexes(repos: Repositories): Promise<void> {
  await Promise.all(
    [...Object.values(repos.models), repos.claims.model].map((m: { createIndexes(): Promise<unknown> }) =>
      m.createIndexes(),
    ),
  );
}
