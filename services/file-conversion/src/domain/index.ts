// The rules of file-conversion as plain functions and types. Imports nothing from http/, events/ or data/.
export { analyseCopyright, type CopyrightAnalysis } from './copyright';
export {
  type Access,
  accessTo,
  canPublish,
  hashFromMediaKey,
  isOnSale,
  licenceActive,
  mediaPath,
  startOfMonth,
  storageKeys,
} from './files';
export { DEFAULT_TIER, fileLimitFor } from './tiers';
