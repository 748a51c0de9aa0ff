/** Business constants and limits of the spec's point 9 (and the fixed lists of points 3, 4 and 6). */

export const membershipTiers = ['free', 'trial', 'standard', 'creator', '300point', '3000point'] as const;
export type MembershipTierValue = (typeof membershipTiers)[number];

export const displayModes = ['fit-width', 'fit-height', 'fill'] as const;
export const fileStatuses = ['private', 'processing', 'disabled'] as const;
export const fileKinds = ['pdf', 'pptx', 'docx', 'image', 'video'] as const;
/** Photo formats taken as the 'image' kind (decided from the bytes; a GIF shows its first frame). */
export const imageFormats = ['jpeg', 'png', 'webp', 'gif', 'heic', 'avif'] as const;
/** Video containers taken as the 'video' kind (decided from the bytes); 'mp4' and 'webm' are also what is stored. */
export const videoFormats = ['mp4', 'mov', 'webm', 'mkv', 'avi'] as const;
/** Why a video was transcoded rather than kept (stored as codes; File management words them). */
export const transcodeReasons = [
  'container',
  'video-codec',
  'audio-codec',
  'resolution',
  'variable-frame-rate',
  'pixel-format',
] as const;
export const pointTransactionTypes = ['earn', 'spend', 'purchase'] as const;
export const authProviders = ['external', 'local'] as const;
export const publishPrices = [3000, 5000, 10000] as const;
export const pointPackages = [1000, 3000, 5000, 10000] as const;
export type PublishPriceValue = (typeof publishPrices)[number];
export type PointPackageValue = (typeof pointPackages)[number];

export interface PricePlan {
  value: PublishPriceValue;
  label: 'popular' | 'recommended' | 'premium';
  /** points the platform keeps */
  fee: number;
  /** points the seller earns */
  net: number;
}

export const pricePlans: readonly PricePlan[] = [
  { value: 3000, label: 'popular', fee: 1000, net: 2000 },
  { value: 5000, label: 'recommended', fee: 1500, net: 3500 },
  { value: 10000, label: 'premium', fee: 3000, net: 7000 },
];

/** The plan of a publish price, or undefined when the price is not one of the plans. */
export function pricePlanFor(price: number): PricePlan | undefined {
  return pricePlans.find((plan) => plan.value === price);
}

/** What a sale at one price pays: the platform's fee and the seller's net (fee + net = price). */
export interface FeeSplit {
  fee: number;
  net: number;
}

/**
 * The one fee table of a marketplace sale (spec point 9), used by the marketplace when it asks and by billing when it
 * moves the points; undefined for a price off the table (no listing can have one: publishing takes only these prices).
 */
export function feeSplitFor(price: number): FeeSplit | undefined {
  const plan = pricePlanFor(price);
  return plan ? { fee: plan.fee, net: plan.net } : undefined;
}

export const constants = {
  minPasswordLength: 12,
  maxPasswordLength: 128,
  initialPoints: 300,
  registrationBonusPoints: 300,
  migrationBonusPoints: 100,
  membershipTiers,
  defaultMembershipTier: 'trial',
  paidTiers: ['standard', 'creator', '3000point'],
  /** Free-tier members cannot purchase content (spec point 6). */
  tiersThatCannotPurchase: ['free'],
  fileLimits: { free: 3, trial: 3, standard: 30, creator: 50, '300point': 3, '3000point': 30 },
  fallbackFileLimit: 3,
  pricePlans,
  publishPrices,
  pointPackages,
  defaultPointPackage: 3000,
  yenPerPoint: 1,
  upgradeCosts: { standard: 3000, creator: 5000 },
  monthlyPlanPrices: { trial: 300, standard: 3000, creator: 5000 },
  /** Upgrades happen at once and are paid with points (spec point 4). */
  allowedUpgrades: { free: ['standard', 'creator'], trial: ['standard', 'creator'], standard: ['creator'] },
  /** Downgrades are reserved for the next month (spec point 4). */
  allowedDowngrades: {
    standard: ['free'],
    '300point': ['free'],
    creator: ['free', 'standard'],
    '3000point': ['free', 'standard'],
  },
  trialDays: 30,
  cashOut: {
    enabled: false,
    yenPerPoint: 1,
    transferFeeYen: 220,
    // The spec has 10,000 (points screen) and 1,000 (another string set); the points screen's figure is kept.
    minimumPoints: 10000,
  },
  upload: {
    /** documents (PDF, PPTX, DOCX): the spec's limit, on either upload path */
    maxBytes: 10 * 1024 * 1024,
    /** photos and videos, through the resumable (tus) upload only: 2 GiB */
    maxMediaBytes: 2 * 1024 * 1024 * 1024,
    /** where the resumable (tus 1.0) upload is created; each upload is `<path>/<uploadId>` */
    resumablePath: '/api/files/uploads',
    kinds: fileKinds,
    mimeTypes: {
      pdf: 'application/pdf',
      pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
      docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    },
    extensions: { pdf: '.pdf', pptx: '.pptx', docx: '.docx' },
    /** Photos (the 'image' kind): each format's type and names, for the file picker and the stored original. */
    imageMimeTypes: {
      jpeg: 'image/jpeg',
      png: 'image/png',
      webp: 'image/webp',
      gif: 'image/gif',
      heic: 'image/heic',
      avif: 'image/avif',
    },
    imageExtensions: {
      jpeg: ['.jpg', '.jpeg'],
      png: ['.png'],
      webp: ['.webp'],
      gif: ['.gif'],
      heic: ['.heic', '.heif'],
      avif: ['.avif'],
    },
    /** Videos (the 'video' kind): each container's type and names, for the file picker and the stored original. */
    videoMimeTypes: {
      mp4: 'video/mp4',
      mov: 'video/quicktime',
      webm: 'video/webm',
      mkv: 'video/x-matroska',
      avi: 'video/x-msvideo',
    },
    videoExtensions: {
      mp4: ['.mp4', '.m4v'],
      mov: ['.mov'],
      webm: ['.webm'],
      mkv: ['.mkv'],
      avi: ['.avi'],
    },
    /** multipart field holding the file */
    fileField: 'pdf',
    minDisplayDuration: 1,
    maxDisplayDuration: 60,
  },
  editDuration: { min: 1, max: 300 },
  defaultDisplayDuration: 30,
  playerFallbackDurationSeconds: 5,
  displayModes,
  defaultDisplayMode: 'fit-height',
  fileStatuses,
  defaultFileStatus: 'private',
  tags: { maxLength: 30, maxCount: 20 },
  title: { maxLength: 200 },
  marketplacePageSize: 24,
  licenceDays: 30,
  redirectDelaysMs: { loginRequired: 500, playerLoginRequired: 1000, afterPasswordReset: 2000 },
  contactMessage: { minLength: 10, maxLength: 5000, defaultStatus: 'new' },
  languages: ['ja', 'en', 'fr', 'it'],
  fallbackLanguage: 'ja',
  currentUserStaleTimeMs: 300000,
  toast: { limit: 1, durationMs: 5000, removeDelayMs: 1000000, swipeThresholdPx: 50 },
} as const;
