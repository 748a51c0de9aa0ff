import type mongoose from 'mongoose';
import { Schema } from 'mongoose';
import type { FileKind, ListingCopyright } from '@pagecast/contracts';

const opts = { versionKey: false as const, minimize: false };

/** The marketplace's read model of files on sale, from file-conversion's events. */
export interface ListingDoc {
  _id: string;
  sellerId: string;
  title: string;
  /** NFKC + lower case, what title search matches */
  titleFolded: string;
  publishPrice: number;
  pageCount: number;
  displayDuration: number;
  tags: string[];
  updatedAt: Date;
  /** on sale now */
  listed: boolean;
  /** a deleted file never comes back, whatever event arrives late */
  deleted: boolean;
  /** the file's updatedAt (or deletion time) of the last applied event */
  version: Date;
  /** author, company and notice the seller stated (null: never told) */
  copyright?: ListingCopyright | null;
  /** the file's kind (null or absent: never told, announced before kinds were carried; shown as a document) */
  kind?: FileKind | null;
  /** a video's length in whole seconds (null: not a video, or never told) */
  videoSeconds?: number | null;
}

/** Tier of each member (account and billing events): free members cannot buy. */
export interface MemberDoc {
  _id: string;
  tier: string;
  version: Date;
}

export type PurchaseState = 'pending' | 'completed' | 'abandoned';

/** A purchase intent, inserted once under its claim key before any point moves. */
export interface PurchaseDoc {
  _id: string;
  /** buyer:file:generation (unique): two tabs buying at once make one purchase */
  claimKey: string;
  buyerId: string;
  fileId: string;
  sellerId: string;
  /** the listing's title when bought (the buyer's and seller's history text) */
  title: string;
  price: number;
  sellerNet: number;
  platformFee: number;
  state: PurchaseState;
  /** billing's refusal code when abandoned */
  reason: string | null;
  createdAt: Date;
  /** when the points moved (billing's time), then the licence's start */
  purchasedAt: Date | null;
  /**
   * the member who bought and their call's client address, for the buyer's audit entry (written when the purchase
   * settles, maybe by the sweeper); absent on purchases stored before it: the buyer's workspace's owner, no address
   */
  actor?: { userId: string; address: string } | null;
}

/** content_purchases (spec point 3): a licence, one per completed purchase (_id = purchase id). */
export interface LicenceDoc {
  _id: string;
  buyerId: string;
  fileId: string;
  sellerId: string;
  pointsSpent: number;
  expiresAt: Date;
  createdAt: Date;
  /** set by the expiry job once it has announced the end */
  expiredAt: Date | null;
}

const listingSchema = new Schema<ListingDoc>(
  {
    _id: String,
    sellerId: { type: String, required: true },
    title: { type: String, required: true },
    titleFolded: { type: String, required: true },
    publishPrice: { type: Number, required: true },
    pageCount: { type: Number, required: true },
    displayDuration: { type: Number, required: true },
    tags: { type: [String], default: [] },
    updatedAt: { type: Date, required: true },
    listed: { type: Boolean, required: true },
    deleted: { type: Boolean, default: false },
    version: { type: Date, required: true },
    copyright: {
      type: new Schema(
        {
          authorName: String,
          companyName: { type: String, default: null },
          copyrightText: { type: String, default: null },
        },
        { _id: false },
      ),
      default: null,
    },
    kind: { type: String, default: null },
    videoSeconds: { type: Number, default: null },
  },
  { ...opts, collection: 'listings' },
);
// Page of the newest listings; tag filters narrow by the multikey index first.
listingSchema.index({ listed: 1, updatedAt: -1, _id: -1 });
listingSchema.index({ tags: 1, listed: 1 });

const memberSchema = new Schema<MemberDoc>(
  { _id: String, tier: { type: String, required: true }, version: { type: Date, required: true } },
  { ...opts, collection: 'members' },
);

const purchaseSchema = new Schema<PurchaseDoc>(
  {
    _id: String,
    claimKey: { type: String, required: true },
    buyerId: { type: String, required: true },
    fileId: { type: String, required: true },
    sellerId: { type: String, required: true },
    title: { type: String, required: true },
    price: { type: Number, required: true },
    sellerNet: { type: Number, required: true },
    platformFee: { type: Number, required: true },
    state: { type: String, required: true },
    reason: { type: String, default: null },
    createdAt: { type: Date, required: true },
    purchasedAt: { type: Date, default: null },
    actor: { type: Schema.Types.Mixed, default: null },
  },
  { ...opts, collection: 'purchases' },
);
purchaseSchema.index({ claimKey: 1 }, { unique: true });
purchaseSchema.index({ buyerId: 1, fileId: 1 });
purchaseSchema.index({ state: 1, createdAt: 1 });

const licenceSchema = new Schema<LicenceDoc>(
  {
    _id: String,
    buyerId: { type: String, required: true },
    fileId: { type: String, required: true },
    sellerId: { type: String, required: true },
    pointsSpent: { type: Number, required: true },
    expiresAt: { type: Date, required: true },
    createdAt: { type: Date, required: true },
    expiredAt: { type: Date, default: null },
  },
  { ...opts, collection: 'content_purchases' },
);
licenceSchema.index({ buyerId: 1, fileId: 1, expiresAt: 1 });
licenceSchema.index({ expiredAt: 1, expiresAt: 1 });

/** One marker document: when the listings last changed (instances reload their search index when it moves). */
export interface MetaDoc {
  _id: string;
  at: number;
}
const metaSchema = new Schema<MetaDoc>(
  { _id: String, at: { type: Number, required: true } },
  { ...opts, collection: 'meta' },
);

function model<T>(conn: mongoose.Connection, name: string, schema: mongoose.Schema<T>) {
  return (conn.models[name] as mongoose.Model<T> | undefined) ?? conn.model<T>(name, schema);
}

export function createModels(conn: mongoose.Connection) {
  return {
    listings: model(conn, 'listings', listingSchema),
    members: model(conn, 'members', memberSchema),
    purchases: model(conn, 'purchases', purchaseSchema),
    licences: model(conn, 'content_purchases', licenceSchema),
    meta: model(conn, 'meta', metaSchema),
  };
}
export type Models = ReturnType<typeof createModels>;
