import { z } from 'zod';
import { constants, fileKinds, imageFormats, transcodeReasons, videoFormats } from '../constants';
import { ListingCopyright } from '../events';
import { defineRoutes } from '../route-def';
import {
  DisplayMode,
  EditDisplayDuration,
  FileStatus,
  Id,
  IsoDateTime,
  OkResponse,
  PublishPrice,
  Tags,
  Title,
  UploadDisplayDuration,
} from '../validation';

export const FileKind = z.enum(fileKinds);
export type FileKind = z.infer<typeof FileKind>;
export const ImageFormat = z.enum(imageFormats);
export type ImageFormat = z.infer<typeof ImageFormat>;
export const VideoFormat = z.enum(videoFormats);
export type VideoFormat = z.infer<typeof VideoFormat>;
export const TranscodeReason = z.enum(transcodeReasons);
export type TranscodeReason = z.infer<typeof TranscodeReason>;

const documentKinds = ['pdf', 'pptx', 'docx'] as const;
const imageNames = Object.values(constants.upload.imageExtensions).flat();
const imageTypes: readonly string[] = Object.values(constants.upload.imageMimeTypes);
const videoNames = Object.values(constants.upload.videoExtensions).flat();
const videoTypes: readonly string[] = Object.values(constants.upload.videoMimeTypes);

/**
 * Kind of an upload by its name or its declared type, for the dialog's first check only: the server decides from
 * the bytes and never trusts either.
 */
export function uploadKindOf(name: string, mimeType?: string): FileKind | undefined {
  const lower = name.toLowerCase();
  for (const kind of documentKinds) {
    if (lower.endsWith(constants.upload.extensions[kind])) return kind;
  }
  if (imageNames.some((ext) => lower.endsWith(ext))) return 'image';
  if (videoNames.some((ext) => lower.endsWith(ext))) return 'video';
  for (const kind of documentKinds) {
    if (mimeType === constants.upload.mimeTypes[kind]) return kind;
  }
  if (mimeType && imageTypes.includes(mimeType)) return 'image';
  if (mimeType && videoTypes.includes(mimeType)) return 'video';
  return undefined;
}

/** Photos and videos may be up to 2 GiB and go through the resumable upload; documents keep the 10 MB limit. */
export function isMediaKind(kind: FileKind | undefined): kind is 'image' | 'video' {
  return kind === 'image' || kind === 'video';
}

/** The file picker's accept list: every document, photo and video name the upload takes. */
export const uploadAccept = [
  ...documentKinds.map((k) => constants.upload.extensions[k]),
  ...imageNames,
  ...videoNames,
].join(',');

/**
 * A photo's or a video's format and its size as shown (EXIF orientation or a phone's rotation applied), in pixels.
 * A video also has its length and codecs (of the source at upload, of the stored file once converted) and, once
 * converted, whether it was kept or transcoded and why.
 */
export const MediaInfo = z.object({
  format: z.union([ImageFormat, VideoFormat]),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  durationMs: z.number().int().nonnegative().optional(),
  videoCodec: z.string().optional(),
  audioCodec: z.string().nullable().optional(),
  processing: z.enum(['kept', 'transcoded']).optional(),
  transcodeReasons: z.array(TranscodeReason).optional(),
});
export type MediaInfo = z.infer<typeof MediaInfo>;

/** The title an upload gets by default: the file name without a .pdf suffix. */
export function defaultTitleFromFilename(name: string): string {
  return name.replace(/\.pdf$/i, '');
}

export const CopyrightInfo = z.object(
  {
    authorName: z
      .string({ error: 'validation.authorNameRequired' })
      .trim()
      .min(1, 'validation.authorNameRequired')
      .max(100, 'validation.copyrightTooLong'),
    companyName: z.string().trim().max(100, 'validation.copyrightTooLong').optional(),
    copyrightText: z.string().trim().max(2000, 'validation.copyrightTooLong').optional(),
  },
  { error: 'validation.jsonInvalid' },
);
export type CopyrightInfo = z.infer<typeof CopyrightInfo>;

// Multipart fields arrive as strings: these turn them into the JSON types first.
const blankToUndefined = (v: unknown) => (v === '' || v === null || v === 'null' ? undefined : v);
const formNumber = (v: unknown) => {
  const b = blankToUndefined(v);
  return typeof b === 'string' ? Number(b) : b;
};
const formBoolean = (v: unknown) => {
  const b = blankToUndefined(v);
  return b === 'true' ? true : b === 'false' ? false : b;
};
const formJson = (v: unknown) => {
  const b = blankToUndefined(v);
  if (typeof b !== 'string') return b;
  try {
    return JSON.parse(b);
  } catch {
    return b; // the schema then refuses it
  }
};
/** tags as JSON array text, comma-separated text, or repeated fields */
const formTags = (v: unknown) => {
  const b = blankToUndefined(v);
  if (typeof b !== 'string') return b;
  if (b.trim().startsWith('[')) return formJson(b);
  return b.split(',');
};

function requireSaleFields(
  value: { isPublished?: boolean; publishPrice?: number | null; copyrightInfo?: CopyrightInfo | undefined },
  ctx: z.RefinementCtx,
  requireAuthor: boolean,
) {
  if (!value.isPublished) return;
  if (value.publishPrice == null) {
    ctx.addIssue({ code: 'custom', message: 'validation.pricePlanRequired', path: ['publishPrice'] });
  }
  if (requireAuthor && !value.copyrightInfo?.authorName) {
    ctx.addIssue({ code: 'custom', message: 'validation.authorNameRequired', path: ['copyrightInfo', 'authorName'] });
  }
}

/**
 * Text fields of POST /api/files/upload (multipart; the file itself is the field `pdf`).
 * Selling needs a price plan and an author name.
 */
export const UploadFileFields = z
  .object({
    title: Title,
    displayDuration: z.preprocess(formNumber, UploadDisplayDuration.default(constants.defaultDisplayDuration)),
    displayMode: z.preprocess(blankToUndefined, DisplayMode.default(constants.defaultDisplayMode)),
    tags: z.preprocess(formTags, Tags.default([])),
    isPublished: z.preprocess(formBoolean, z.boolean({ error: 'validation.booleanInvalid' }).default(false)),
    publishPrice: z.preprocess(formNumber, PublishPrice.optional()),
    copyrightInfo: z.preprocess(formJson, CopyrightInfo.optional()),
  })
  .superRefine((value, ctx) => requireSaleFields(value, ctx, true));
export type UploadFileFields = z.infer<typeof UploadFileFields>;
/** Same as UploadFileFields: the name the conventions use for request schemas. */
export const UploadFileRequest = UploadFileFields;

/** Something that looks like a browser File (name, size, type). */
export interface UploadableFile {
  name: string;
  size: number;
  type: string;
}
const isUploadableFile = (v: unknown): v is UploadableFile =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as UploadableFile).name === 'string' &&
  typeof (v as UploadableFile).size === 'number';

/** The upload dialog (browser): the file checks plus the same rules as the server's fields. */
export const UploadForm = z
  .object({
    file: z
      .custom<UploadableFile>(isUploadableFile, { error: 'validation.fileAndTitleRequired' })
      .refine((f) => isMediaKind(uploadKindOf(f.name, f.type)) || f.size <= constants.upload.maxBytes, {
        error: 'validation.fileTooLarge',
      })
      .refine((f) => f.size <= constants.upload.maxMediaBytes, 'validation.mediaTooLarge')
      .refine((f) => uploadKindOf(f.name, f.type) !== undefined, 'validation.fileTypeUnsupported'),
    title: z
      .string({ error: 'validation.fileAndTitleRequired' })
      .trim()
      .min(1, 'validation.fileAndTitleRequired')
      .max(constants.title.maxLength, 'validation.titleTooLong'),
    // the input falls back to 30 when it is not a number (spec point 5)
    displayDuration: z.preprocess(
      (v) => (typeof v === 'number' && Number.isNaN(v) ? constants.defaultDisplayDuration : v),
      UploadDisplayDuration.default(constants.defaultDisplayDuration),
    ),
    displayMode: DisplayMode.default(constants.defaultDisplayMode),
    tags: Tags.default([]),
    isPublished: z.boolean().default(false),
    publishPrice: PublishPrice.optional(),
    copyrightInfo: CopyrightInfo.optional(),
  })
  .superRefine((value, ctx) => requireSaleFields(value, ctx, true));
export type UploadForm = z.infer<typeof UploadForm>;

export const PublishSettingsRequest = z
  .object({
    isPublished: z.boolean({ error: 'validation.booleanInvalid' }),
    publishPrice: PublishPrice.nullable().optional(),
    /** sent only when one of its parts is filled; then the author name is needed */
    copyrightInfo: CopyrightInfo.optional(),
  })
  .superRefine((value, ctx) => requireSaleFields(value, ctx, false));
export type PublishSettingsRequest = z.infer<typeof PublishSettingsRequest>;

export const UpdateDurationRequest = z.object({ displayDuration: EditDisplayDuration });
export type UpdateDurationRequest = z.infer<typeof UpdateDurationRequest>;
export const UpdateDisplayModeRequest = z.object({ displayMode: DisplayMode });
export type UpdateDisplayModeRequest = z.infer<typeof UpdateDisplayModeRequest>;
/** PUT /api/files/:id: every field optional (the interface sends tags). */
export const UpdateFileRequest = z.object({
  title: Title.optional(),
  displayDuration: EditDisplayDuration.optional(),
  displayMode: DisplayMode.optional(),
  tags: Tags.optional(),
});
export type UpdateFileRequest = z.infer<typeof UpdateFileRequest>;

export const FileIdParams = z.object({ id: Id });
export type FileIdParams = z.infer<typeof FileIdParams>;
export const SignageQuery = z.object({ signage_mode: z.enum(['true', 'false']).optional() });
export type SignageQuery = z.infer<typeof SignageQuery>;

export const FileSummary = z.object({
  id: z.string(),
  userId: z.string(),
  title: z.string(),
  filename: z.string(),
  kind: FileKind,
  /** a photo or a video: its format and dimensions (a video's length and codecs); null for documents */
  media: MediaInfo.nullable().optional(),
  /** the uploaded file's size in bytes */
  sizeBytes: z.number().int().nonnegative().optional(),
  /** a converted video: where it plays from (`/media/video/<id>`, Range requests) */
  videoUrl: z.string().nullable().optional(),
  /** a video being transcoded: percent done, live; absent otherwise */
  transcodePercent: z.number().int().min(0).max(100).nullable().optional(),
  pageCount: z.number().int().nonnegative(),
  /** pages converted so far (equals pageCount once done) */
  pagesReady: z.number().int().nonnegative(),
  displayDuration: z.number().int(),
  displayMode: DisplayMode,
  tags: z.array(z.string()),
  isPublished: z.boolean(),
  publishPrice: z.number().int().nullable(),
  status: FileStatus,
  /** why a file is disabled (conversion failure) */
  statusReason: z.string().nullable().optional(),
  /** first page image, when there is one */
  thumbnailUrl: z.string().nullable().optional(),
  /** marketplace sales of this file (the seller's own list): licences sold, all time */
  copiesSold: z.number().int().nonnegative().optional(),
  /** points the seller earned from those sales (price less the platform's fee) */
  pointsEarned: z.number().int().nonnegative().optional(),
  createdAt: IsoDateTime,
  updatedAt: IsoDateTime,
});
export type FileSummary = z.infer<typeof FileSummary>;
export const FileList = z.array(FileSummary);
export type FileList = z.infer<typeof FileList>;

/** A file the caller may play: their own, or bought and within its 30-day licence. */
export const AccessibleFile = FileSummary.extend({
  access: z.enum(['owner', 'purchased']),
  licenceExpiresAt: IsoDateTime.nullable(),
  /** a bought file: the author, company and notice its seller stated (the buyer keeps seeing whose it is) */
  copyright: ListingCopyright.nullable().optional(),
});
export type AccessibleFile = z.infer<typeof AccessibleFile>;
export const AccessibleFileList = z.array(AccessibleFile);
export type AccessibleFileList = z.infer<typeof AccessibleFileList>;
/** GET /api/files/:id (player) */
export const PlayerFile = AccessibleFile;
export type PlayerFile = AccessibleFile;

/** The video a page stands for: where it plays from (Range requests) and its length. */
export const PageVideo = z.object({
  /** `/media/video/<fileId>` */
  url: z.string(),
  durationMs: z.number().int().nonnegative(),
});
export type PageVideo = z.infer<typeof PageVideo>;

export const FilePage = z.object({
  id: z.string(),
  fileId: z.string(),
  pageNumber: z.number().int().positive(),
  /** URL of the image, '/media/<content-hash key>' (immutable, cache forever) */
  imagePath: z.string(),
  /** URL of the page's thumbnail, '/media/<content-hash key>' like imagePath */
  thumbPath: z.string(),
  displayDuration: z.number().int(),
  width: z.number().int().nullable().optional(),
  height: z.number().int().nullable().optional(),
  /**
   * a converted video's page (its poster, page 1): the video it stands for, which a player plays for its length
   * instead of showing the page for displayDuration; absent for documents, photos and a video not yet playable
   */
  video: PageVideo.nullable().optional(),
  createdAt: IsoDateTime,
});
export type FilePage = z.infer<typeof FilePage>;
export const FilePageList = z.array(FilePage);
export type FilePageList = z.infer<typeof FilePageList>;

export const FileCopyright = z.object({
  authorName: z.string().nullable(),
  companyName: z.string().nullable(),
  copyrightText: z.string().nullable(),
});
export type FileCopyright = z.infer<typeof FileCopyright>;

export const PurchasersResponse = z.object({
  hasActivePurchasers: z.boolean(),
  activePurchaserCount: z.number().int().nonnegative(),
});
export type PurchasersResponse = z.infer<typeof PurchasersResponse>;

/** Preview sizes of a listed file's page: a card's small thumbnail, or a low-resolution watermarked page. */
export const previewSizes = { thumb: 240, page: 480 } as const;
export const PreviewImageParams = z.object({
  id: Id,
  page: z.coerce
    .number({ error: 'validation.pageInvalid' })
    .int('validation.pageInvalid')
    .min(1, 'validation.pageInvalid')
    .max(10_000, 'validation.pageInvalid'),
});
export type PreviewImageParams = z.infer<typeof PreviewImageParams>;
export const PreviewImageQuery = z.object({ size: z.enum(['thumb', 'page']).default('page') });
export type PreviewImageQuery = z.infer<typeof PreviewImageQuery>;

/** The URL of a listed file's preview image (served by file-conversion; never the full-size page). */
export function previewImagePath(fileId: string, page: number, size: 'thumb' | 'page' = 'page'): string {
  return `/api/files/${encodeURIComponent(fileId)}/preview/${page}?size=${size}`;
}

/** A video on sale's preview clip: its first seconds, small, silent, with the watermark burned in. */
export const PreviewVideo = z.object({
  /** `/media/video/<fileId>/preview` (Range requests) */
  url: z.string(),
  /** the poster page's watermarked preview image */
  posterUrl: z.string(),
  /** the clip's length (at most 10 s) */
  durationMs: z.number().int().nonnegative(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
});
export type PreviewVideo = z.infer<typeof PreviewVideo>;

/** GET /api/files/:id/preview: every page of a file on sale, at low resolution with a watermark. */
export const FilePreview = z.object({
  fileId: z.string(),
  pageCount: z.number().int().nonnegative(),
  pages: z.array(z.object({ pageNumber: z.number().int().positive(), url: z.string(), thumbUrl: z.string() })),
  /** a video: its watermarked preview clip (the video itself is sent only with a licence); absent otherwise */
  video: PreviewVideo.nullable().optional(),
});
export type FilePreview = z.infer<typeof FilePreview>;

export const MediaParams = z.object({
  key: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/, 'validation.idInvalid'),
});
export type MediaParams = z.infer<typeof MediaParams>;
export const MediaResponse = z.string().describe('image bytes');
export const VideoResponse = z.string().describe('video bytes: the whole file (200) or the Range asked for (206)');
/** Where a converted video is played from (Range requests; the same access rule as its page images). */
export const videoPath = (fileId: string) => `/media/video/${fileId}`;
/** Where a video on sale's watermarked preview clip is played from (any member, while the file is on sale). */
export const videoPreviewPath = (fileId: string) => `/media/video/${fileId}/preview`;

export const filesRoutes = defineRoutes([
  {
    id: 'listFiles',
    method: 'get',
    path: '/api/files',
    service: 'file-conversion',
    auth: 'session',
    action: 'files.read',
    summary: "The caller's files, newest first",
    response: FileList,
  },
  {
    id: 'listAccessibleFiles',
    method: 'get',
    path: '/api/files/accessible',
    service: 'file-conversion',
    auth: 'session',
    action: 'files.read',
    summary: 'Files the caller may play (own and purchased within the licence), for playlists',
    response: AccessibleFileList,
  },
  {
    id: 'uploadFile',
    method: 'post',
    path: '/api/files/upload',
    service: 'file-conversion',
    auth: 'session',
    action: 'files.write',
    summary:
      'Upload a PDF, PPTX, DOCX, photo or video (10 MB, tier file limit, type from the bytes); conversion runs in the background',
    body: UploadFileFields,
    multipart: true,
    fileField: constants.upload.fileField,
    response: FileSummary,
  },
  {
    id: 'getFileCopyright',
    method: 'get',
    path: '/api/files/:id/copyright',
    service: 'file-conversion',
    auth: 'session',
    action: 'files.read',
    summary: "A file's copyright information",
    params: FileIdParams,
    response: FileCopyright,
  },
  {
    id: 'updatePublishSettings',
    method: 'put',
    path: '/api/files/:id/publish',
    service: 'file-conversion',
    auth: 'session',
    action: 'marketplace.sell',
    summary:
      'Publish (with a price plan) or unpublish a file. Selling needs an author name, given here or recorded for the file before: without one, 400 AUTHOR_NAME_REQUIRED and nothing changes',
    params: FileIdParams,
    body: PublishSettingsRequest,
    response: FileSummary,
  },
  {
    id: 'getFilePreview',
    method: 'get',
    path: '/api/files/:id/preview',
    service: 'file-conversion',
    auth: 'session',
    action: 'marketplace.read',
    summary: 'Preview of a file on sale: every page at low resolution with a watermark (404 when not on sale)',
    params: FileIdParams,
    response: FilePreview,
  },
  {
    id: 'getFilePreviewImage',
    method: 'get',
    path: '/api/files/:id/preview/:page',
    service: 'file-conversion',
    auth: 'session',
    action: 'marketplace.read',
    summary: "A preview image of a file on sale: 'thumb' (card) or 'page' (watermarked), never the full-size page",
    params: PreviewImageParams,
    query: PreviewImageQuery,
    response: MediaResponse,
    responseContentType: 'image/webp',
  },
  {
    id: 'getFilePurchasers',
    method: 'get',
    path: '/api/files/:id/purchasers',
    service: 'file-conversion',
    auth: 'session',
    action: 'sales.read',
    summary: 'Whether buyers still hold a licence for the file (asked before deleting)',
    params: FileIdParams,
    response: PurchasersResponse,
  },
  {
    id: 'deleteFile',
    method: 'delete',
    path: '/api/files/:id',
    service: 'file-conversion',
    auth: 'session',
    action: 'files.write',
    summary: 'Delete a file, its pages and playlist entries; buyers lose access',
    params: FileIdParams,
    response: OkResponse,
  },
  {
    id: 'updateFileDuration',
    method: 'put',
    path: '/api/files/:id/duration',
    service: 'file-conversion',
    auth: 'session',
    action: 'files.write',
    summary: 'Set the display time per page (1–300 s)',
    params: FileIdParams,
    body: UpdateDurationRequest,
    response: FileSummary,
  },
  {
    id: 'updateFileDisplayMode',
    method: 'put',
    path: '/api/files/:id/display-mode',
    service: 'file-conversion',
    auth: 'session',
    action: 'files.write',
    summary: 'Set the display mode',
    params: FileIdParams,
    body: UpdateDisplayModeRequest,
    response: FileSummary,
  },
  {
    id: 'updateFile',
    method: 'put',
    path: '/api/files/:id',
    service: 'file-conversion',
    auth: 'session',
    action: 'files.write',
    summary: 'Update title, duration, display mode or tags',
    params: FileIdParams,
    body: UpdateFileRequest,
    response: FileSummary,
  },
  {
    id: 'getFile',
    method: 'get',
    path: '/api/files/:id',
    service: 'file-conversion',
    auth: 'optional',
    action: 'files.read',
    summary: 'A file for the player (owner or licence holder; 401 when anonymous, 404 otherwise)',
    params: FileIdParams,
    query: SignageQuery,
    response: PlayerFile,
  },
  {
    id: 'getFilePages',
    method: 'get',
    path: '/api/files/:id/pages',
    service: 'file-conversion',
    auth: 'optional',
    action: 'files.read',
    summary: "A file's pages in order, with their image paths",
    params: FileIdParams,
    query: SignageQuery,
    response: FilePageList,
  },
  {
    id: 'getMedia',
    method: 'get',
    path: '/media/:key',
    service: 'file-conversion',
    auth: 'optional',
    action: 'files.read',
    summary: 'A page image by its content-hash key (immutable)',
    params: MediaParams,
    response: MediaResponse,
    responseContentType: 'image/*',
  },
  {
    id: 'getFileVideo',
    method: 'get',
    path: '/media/video/:id',
    service: 'file-conversion',
    auth: 'optional',
    action: 'files.read',
    summary:
      "A converted video's playable file (H.264 MP4 or VP9 WebM) with Range (206): for its owner, a licence holder and a display whose screen plays it",
    params: FileIdParams,
    response: VideoResponse,
    responseContentType: 'video/*',
  },
  {
    id: 'getFileVideoPreview',
    method: 'get',
    path: '/media/video/:id/preview',
    service: 'file-conversion',
    auth: 'session',
    action: 'marketplace.read',
    summary:
      "A video on sale's preview clip with Range (206): its first 10 s at most 360p, silent, watermarked, for any member while the file is on sale (404 otherwise); the video itself needs a licence",
    params: FileIdParams,
    response: VideoResponse,
    responseContentType: 'video/mp4',
  },
]);
