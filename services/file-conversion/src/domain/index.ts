// The rules of file-conversion as plain functions and types. Imports nothing from http/, events/ or data/.
export { analyseCopyright, type CopyrightAnalysis } from './copyright';
export {
  actingUser,
  type ContentDecision,
  type ContentFile,
  type ContentLicence,
  contentAccess,
  LICENCE_KEEP_MS,
  OWNER_KEEP_MS,
  PREVIEW_KEEP_MS,
  playlistAccess,
  type Reader,
  REFUSAL_KEEP_MS,
  type ScreenView,
} from './content-access';
export { canPublish, hashFromMediaKey, isOnSale, mediaPath, startOfMonth, storageKeys } from './files';
export { DEFAULT_TIER, fileLimitFor } from './tiers';
