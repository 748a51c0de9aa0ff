import type {
  OpeningHours,
  PlayRefusalReason,
  ScreenAssignment,
  ScreenPlace,
  ScreenRotation,
} from '@pagecast/contracts';
import mongoose from 'mongoose';

/** A code shown on a display, waiting to be claimed. `_id` is the pairingId. */
export interface PairingRecord {
  _id: string;
  code: string;
  pollSecretHash: string;
  expiresAt: Date;
  createdAt: Date;
}

/**
 * The claim of a code: inserted once under the code's unique pairingId (the atomic step on FerretDB), so two
 * members typing the same code at once cannot both pair it.
 */
export interface PairingClaimRecord {
  _id: string; // pairingId
  screenId: string;
  deviceId: string;
  ownerId: string;
  /** what the member typed: the screen can be (re)built from the claim alone after a crash */
  name: string;
  timeZone: string;
  claimedAt: Date;
}

export interface ScreenRecord {
  _id: string;
  ownerId: string;
  deviceId: string;
  pairingId: string;
  name: string;
  timeZone: string;
  assignment: ScreenAssignment;
  /** the number of its newest entry in screen_assignments (absent on screens paired before assignments were kept in history) */
  assignmentSeq?: number;
  /** the owner's groups it is in (absent: none) */
  groupIds?: string[];
  /** how it hangs (absent: 0) and its own opening hours (absent or null: its groups', else always open) */
  rotation?: ScreenRotation;
  openingHours?: OpeningHours;
  /** where it is, for disaster alerts (absent or null: its groups', else nowhere) */
  place?: ScreenPlace;
  pairedAt: Date;
  revokedAt: Date | null;
}

/** A page shown, as the display recorded it: what a counted play and a refused one both keep. */
interface PlayFacts {
  /** the device's record id, so a resend is a duplicate key */
  _id: string;
  screenId: string;
  ownerId: string;
  fileId: string;
  page: number;
  startedAt: Date;
  /** the screen's local calendar day of startedAt (YYYY-MM-DD): the report's day */
  day: string;
  receivedAt: Date;
  /** a video's record: the second of the video it reached (absent for pages and older records) */
  reachedSecond?: number;
  /**
   * the intake sequence it was judged at (absent on records stored before the rollups were flushed on an interval):
   * a judge that finds it stored again adds it to a rollup whose sequence is below it (its predecessor died before
   * flushing that rollup)
   */
  seq?: number;
}

/** One page shown that counts. */
export interface PlayRecordDoc extends PlayFacts {
  /** the seconds it adds to the screen's played time: what the display said, less an overlap within the tolerance */
  seconds: number;
  /** what the display said (absent on records stored before displays said it) */
  claimedSeconds?: number;
  /** played during this takeover of its file */
  takeoverId?: string;
  /** its page's duration when it was judged (absent on older records): whether it is a play (countsAsPlay) */
  pageSeconds?: number;
}

/** A record that does not count, stored once under its id with the reason (a resend is a duplicate). */
export interface PlayRefusalDoc extends PlayFacts {
  /** what the display said */
  seconds: number;
  reason: PlayRefusalReason;
}

const pairingSchema = new mongoose.Schema<PairingRecord>(
  {
    _id: { type: String, required: true },
    code: { type: String, required: true },
    pollSecretHash: { type: String, required: true },
    expiresAt: { type: Date, required: true },
    createdAt: { type: Date, required: true },
  },
  { collection: 'pairings', versionKey: false },
);
pairingSchema.index({ code: 1, expiresAt: -1 });
pairingSchema.index({ expiresAt: 1 });

const claimSchema = new mongoose.Schema<PairingClaimRecord>(
  {
    _id: { type: String, required: true },
    screenId: { type: String, required: true },
    deviceId: { type: String, required: true },
    ownerId: { type: String, required: true },
    name: { type: String, required: true },
    timeZone: { type: String, required: true },
    claimedAt: { type: Date, required: true },
  },
  { collection: 'pairing_claims', versionKey: false },
);

const screenSchema = new mongoose.Schema<ScreenRecord>(
  {
    _id: { type: String, required: true },
    ownerId: { type: String, required: true, index: true },
    deviceId: { type: String, required: true, unique: true },
    pairingId: { type: String, required: true, unique: true },
    name: { type: String, required: true },
    timeZone: { type: String, required: true },
    assignment: { type: mongoose.Schema.Types.Mixed, required: true },
    assignmentSeq: { type: Number },
    groupIds: { type: [String], default: undefined },
    rotation: { type: Number },
    openingHours: { type: mongoose.Schema.Types.Mixed },
    place: { type: mongoose.Schema.Types.Mixed },
    pairedAt: { type: Date, required: true },
    revokedAt: { type: Date, default: null },
  },
  { collection: 'screens', versionKey: false, minimize: false },
);

const playFacts = {
  _id: { type: String, required: true },
  screenId: { type: String, required: true },
  ownerId: { type: String, required: true },
  fileId: { type: String, required: true },
  page: { type: Number, required: true },
  startedAt: { type: Date, required: true },
  day: { type: String, required: true },
  seconds: { type: Number, required: true },
  receivedAt: { type: Date, required: true },
  reachedSecond: { type: Number },
  seq: { type: Number },
};

const playSchema = new mongoose.Schema<PlayRecordDoc>(
  { ...playFacts, claimedSeconds: { type: Number }, takeoverId: { type: String }, pageSeconds: { type: Number } },
  { collection: 'plays', versionKey: false },
);
// The owner's report (by day) and a seller's counts per file (by fileId and day, never screen or owner).
playSchema.index({ ownerId: 1, day: 1 });
playSchema.index({ fileId: 1, day: 1 });

const refusalSchema = new mongoose.Schema<PlayRefusalDoc>(
  { ...playFacts, reason: { type: String, required: true } },
  { collection: 'play_refusals', versionKey: false },
);
// The owner's view of refusals, by day (a seller never reads this collection).
refusalSchema.index({ ownerId: 1, day: 1 });

/** A file somebody bought, and who sold it (from marketplace's purchase events): whose sold plays it counts in. */
export interface SoldFileDoc {
  /** fileId */
  _id: string;
  sellerId: string;
  at: Date;
}
const soldFileSchema = new mongoose.Schema<SoldFileDoc>(
  {
    _id: { type: String, required: true },
    sellerId: { type: String, required: true },
    at: { type: Date, required: true },
  },
  { collection: 'sold_files', versionKey: false },
);
soldFileSchema.index({ sellerId: 1 });

export function defineModels(conn: mongoose.Connection) {
  const get = <T>(name: string, schema: mongoose.Schema<T>) =>
    (conn.models[name] as mongoose.Model<T> | undefined) ?? conn.model<T>(name, schema);
  return {
    pairings: get('Pairing', pairingSchema),
    claims: get('PairingClaim', claimSchema),
    screens: get('Screen', screenSchema),
    plays: get('Play', playSchema),
    refusals: get('PlayRefusal', refusalSchema),
    soldFiles: get('SoldFile', soldFileSchema),
  };
}
export type Models = ReturnType<typeof defineModels>;
