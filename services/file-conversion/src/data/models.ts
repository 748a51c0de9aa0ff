import type { DisplayMode, FileKind, FileStatus, MediaInfo, MembershipTier } from '@pagecast/contracts';
import mongoose from 'mongoose';
import type { VideoProbe } from '../conversion/index.ts';

const { Schema } = mongoose;
const opts = { versionKey: false as const, minimize: false };

/** A video's preview clip as stored: what the marketplace plays before a licence is bought. */
export interface VideoPreviewDoc {
  mimeType: 'video/mp4';
  bytes: number;
  sha256: string;
  width: number;
  height: number;
  durationMs: number;
}

export interface FileDoc {
  _id: string;
  userId: string;
  title: string;
  filename: string;
  kind: FileKind;
  /** a photo's or video's format and dimensions as shown (read from its header at upload); absent for documents */
  media?: MediaInfo | null;
  /**
   * a video's whole probe as the upload made it (in the sandbox, its limits checked): the conversion starts from it
   * instead of probing the same bytes again; absent for other kinds and for videos uploaded before it was kept
   */
  sourceProbe?: VideoProbe | null;
  /**
   * a converted video's playable file (object `videos/<fileId>`), kept or transcoded, and its watermarked preview
   * clip (object `videos/<fileId>-preview`; absent for a video converted before clips were made)
   */
  video?: {
    mimeType: 'video/mp4' | 'video/webm';
    bytes: number;
    sha256: string;
    preview?: VideoPreviewDoc | null;
    /** clips the backfill tried to make for a video without one (it stops at its bound), and when it last began one */
    clipAttempts?: number;
    clipTriedAt?: Date | null;
  } | null;
  sizeBytes: number;
  pageCount: number;
  displayDuration: number;
  displayMode: DisplayMode;
  tags: string[];
  isPublished: boolean;
  publishPrice: number | null;
  status: FileStatus;
  /** why a file is disabled: the engine's error code, or CONVERSION_FAILED */
  disabledReason: string | null;
  conversion: {
    pagesDone: number;
    pagesTotal: number;
    attempts: number;
    finishedAt: Date | null;
    /** a video's transcode, 0..100, while it runs */
    percent?: number | null;
  };
  /** thumbnail of page 1, once stored */
  thumbKey: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface PageDoc {
  _id: string;
  fileId: string;
  /** the file's owner, so the media check is one query */
  ownerId: string;
  pageNumber: number;
  /** sha256 of the WebP, also its object key pages/<hash>.webp */
  imageKey: string;
  thumbKey: string;
  /** [imageKey, thumbKey]: one index answers "which files show this object" */
  keys: string[];
  width: number;
  height: number;
  displayDuration: number;
  text: string;
  createdAt: Date;
}

export interface OwnerDoc {
  _id: string;
  membershipTier: MembershipTier;
  /** when the tier was announced (registration or change); null for the default of a member not heard of yet */
  tierAt: Date | null;
  points: number;
  pointsAt: Date | null;
  updatedAt: Date;
}

/**
 * One of a member's tier slots, held by one file. `_id` is `<userId>:<slot number>`: taking a slot is an insert that
 * the unique _id makes atomic (FerretDB applies a conditional $inc as read-then-write, so a counter would race).
 */
export interface FileSlotDoc {
  _id: string;
  userId: string;
  fileId: string;
  createdAt: Date;
}

export interface LicenceDoc {
  _id: string;
  buyerId: string;
  fileId: string;
  sellerId: string;
  /** price paid and what the seller earned, for the seller's per-file sales */
  price: number;
  sellerNet: number;
  expiresAt: Date;
  createdAt: Date;
}

export interface PointEntryDoc {
  _id: string;
  userId: string;
  amount: number;
  type: 'earn' | 'spend' | 'purchase' | null;
  occurredAt: Date;
  /** billing marked the entry as a sale's proceeds (the seller's leg of a purchase); absent on older entries */
  sale?: boolean;
}

export interface CopyrightInfoDoc {
  _id: string;
  fileId: string;
  authorName: string | null;
  companyName: string | null;
  copyrightText: string | null;
  createdAt: Date;
}

export interface CopyrightCheckDoc {
  _id: string;
  fileId: string;
  checkType: 'text_analysis' | 'user_confirmation' | 'external_api';
  status: 'passed' | 'failed' | 'pending' | 'skipped';
  riskLevel: 'low' | 'medium' | 'high';
  details: string | null;
  detectedPatterns: string[];
  userConfirmed: boolean;
  createdAt: Date;
}

export interface AuthorProfileDoc {
  _id: string;
  userId: string;
  name: string;
  authorName: string;
  companyName: string | null;
  copyrightText: string | null;
  isDefault: boolean;
  createdAt: Date;
  updatedAt: Date;
}

const fileSchema = new Schema<FileDoc>(
  {
    _id: String,
    userId: { type: String, required: true },
    title: { type: String, required: true },
    filename: { type: String, required: true },
    kind: { type: String, required: true },
    media: {
      type: new Schema(
        {
          format: String,
          width: Number,
          height: Number,
          durationMs: Number,
          videoCodec: String,
          audioCodec: String,
          processing: String,
          transcodeReasons: { type: [String], default: undefined },
        },
        { _id: false },
      ),
      default: null,
    },
    sourceProbe: {
      type: new Schema(
        {
          container: String,
          width: Number,
          height: Number,
          durationMs: Number,
          videoCodec: String,
          audioCodec: String,
          pixelFormat: String,
          frameRate: Number,
          constantFrameRate: Boolean,
        },
        { _id: false },
      ),
      default: undefined,
    },
    video: {
      type: new Schema(
        {
          mimeType: String,
          bytes: Number,
          sha256: String,
          preview: {
            type: new Schema(
              { mimeType: String, bytes: Number, sha256: String, width: Number, height: Number, durationMs: Number },
              { _id: false },
            ),
            default: null,
          },
          clipAttempts: { type: Number, default: undefined },
          clipTriedAt: { type: Date, default: undefined },
        },
        { _id: false },
      ),
      default: null,
    },
    sizeBytes: { type: Number, required: true },
    pageCount: { type: Number, default: 0 },
    displayDuration: { type: Number, default: 30 },
    displayMode: { type: String, default: 'fit-height' },
    tags: { type: [String], default: [] },
    isPublished: { type: Boolean, default: false },
    publishPrice: { type: Number, default: null },
    status: { type: String, default: 'processing' },
    disabledReason: { type: String, default: null },
    conversion: {
      pagesDone: { type: Number, default: 0 },
      pagesTotal: { type: Number, default: 0 },
      attempts: { type: Number, default: 0 },
      finishedAt: { type: Date, default: null },
      percent: { type: Number, default: null },
    },
    thumbKey: { type: String, default: null },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
  },
  { ...opts, collection: 'files' },
);
fileSchema.index({ userId: 1, createdAt: -1 });

const pageSchema = new Schema<PageDoc>(
  {
    _id: String,
    fileId: { type: String, required: true },
    ownerId: { type: String, required: true },
    pageNumber: { type: Number, required: true },
    imageKey: { type: String, required: true },
    thumbKey: { type: String, required: true },
    keys: { type: [String], required: true },
    width: Number,
    height: Number,
    displayDuration: { type: Number, default: 30 },
    text: { type: String, default: '' },
    createdAt: { type: Date, required: true },
  },
  { ...opts, collection: 'file_pages' },
);
pageSchema.index({ fileId: 1, pageNumber: 1 }, { unique: true });
pageSchema.index({ keys: 1 });

const ownerSchema = new Schema<OwnerDoc>(
  {
    _id: String,
    membershipTier: { type: String, default: 'trial' },
    tierAt: { type: Date, default: null },
    points: { type: Number, default: 0 },
    pointsAt: { type: Date, default: null },
    updatedAt: { type: Date, required: true },
  },
  { ...opts, collection: 'owners' },
);

const fileSlotSchema = new Schema<FileSlotDoc>(
  {
    _id: String,
    userId: { type: String, required: true },
    fileId: { type: String, required: true },
    createdAt: { type: Date, required: true },
  },
  { ...opts, collection: 'file_slots' },
);
fileSlotSchema.index({ userId: 1 });
fileSlotSchema.index({ fileId: 1 });

const licenceSchema = new Schema<LicenceDoc>(
  {
    _id: String,
    buyerId: { type: String, required: true },
    fileId: { type: String, required: true },
    sellerId: { type: String, required: true },
    price: { type: Number, default: 0 },
    sellerNet: { type: Number, default: 0 },
    expiresAt: { type: Date, required: true },
    createdAt: { type: Date, required: true },
  },
  { ...opts, collection: 'licences' },
);
licenceSchema.index({ buyerId: 1, fileId: 1 });
licenceSchema.index({ fileId: 1, expiresAt: 1 });

const pointEntrySchema = new Schema<PointEntryDoc>(
  {
    _id: String,
    userId: { type: String, required: true },
    amount: { type: Number, required: true },
    type: { type: String, default: null },
    occurredAt: { type: Date, required: true },
    sale: { type: Boolean, default: false },
  },
  { ...opts, collection: 'point_entries' },
);
pointEntrySchema.index({ userId: 1, occurredAt: 1 });

const copyrightInfoSchema = new Schema<CopyrightInfoDoc>(
  {
    _id: String,
    fileId: { type: String, required: true },
    authorName: { type: String, default: null },
    companyName: { type: String, default: null },
    copyrightText: { type: String, default: null },
    createdAt: { type: Date, required: true },
  },
  { ...opts, collection: 'copyright_info' },
);
copyrightInfoSchema.index({ fileId: 1 }, { unique: true });

const copyrightCheckSchema = new Schema<CopyrightCheckDoc>(
  {
    _id: String,
    fileId: { type: String, required: true },
    checkType: { type: String, required: true },
    status: { type: String, required: true },
    riskLevel: { type: String, required: true },
    details: { type: String, default: null },
    detectedPatterns: { type: [String], default: [] },
    userConfirmed: { type: Boolean, default: false },
    createdAt: { type: Date, required: true },
  },
  { ...opts, collection: 'copyright_checks' },
);
copyrightCheckSchema.index({ fileId: 1, checkType: 1 }, { unique: true });

const authorProfileSchema = new Schema<AuthorProfileDoc>(
  {
    _id: String,
    userId: { type: String, required: true },
    name: { type: String, required: true },
    authorName: { type: String, required: true },
    companyName: { type: String, default: null },
    copyrightText: { type: String, default: null },
    isDefault: { type: Boolean, default: false },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
  },
  { ...opts, collection: 'author_profiles' },
);
authorProfileSchema.index({ userId: 1, isDefault: 1 });

function model<T>(conn: mongoose.Connection, name: string, schema: mongoose.Schema<T>) {
  return (conn.models[name] as mongoose.Model<T> | undefined) ?? conn.model<T>(name, schema);
}

export function createModels(conn: mongoose.Connection) {
  return {
    files: model(conn, 'files', fileSchema),
    pages: model(conn, 'file_pages', pageSchema),
    owners: model(conn, 'owners', ownerSchema),
    fileSlots: model(conn, 'file_slots', fileSlotSchema),
    licences: model(conn, 'licences', licenceSchema),
    pointEntries: model(conn, 'point_entries', pointEntrySchema),
    copyrightInfo: model(conn, 'copyright_info', copyrightInfoSchema),
    copyrightChecks: model(conn, 'copyright_checks', copyrightCheckSchema),
    authorProfiles: model(conn, 'author_profiles', authorProfileSchema),
  };
}
export type Models = ReturnType<typeof createModels>;
