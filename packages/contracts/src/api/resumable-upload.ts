// The resumable upload of photos and videos (up to 2 GiB): the tus 1.0 protocol (core, creation, termination,
// expiration; https://tus.io/protocols/resumable-upload), served by file-conversion on object storage, so a resumed
// upload may reach any instance. Documents may use it too, within their 10 MB.
import { z } from 'zod';
import { constants } from '../constants';
import { defineRoutes } from '../route-def';
import { FileSummary } from './files';

export const TUS_VERSION = '1.0.0';

/** Upload-Metadata keys (values base64, as tus says): the multipart upload's text fields, plus the file's name. */
export const resumableMetadataKeys = [
  'filename',
  'title',
  'displayDuration',
  'displayMode',
  'tags',
  'isPublished',
  'publishPrice',
  'copyrightInfo',
] as const;

export const ResumableUploadParams = z.object({ uploadId: z.uuid() });

const TusResumable = z.literal(TUS_VERSION).describe('tus protocol version; every call but OPTIONS sends it');
const Digits = z.string().regex(/^\d+$/);

export const CreateResumableUploadHeaders = z.object({
  'tus-resumable': TusResumable,
  'upload-length': Digits.describe(
    `size of the whole file in bytes; required (no deferred length), at most ${constants.upload.maxMediaBytes} (2 GiB)`,
  ),
  'upload-metadata': z
    .string()
    .describe(
      `comma-separated "key base64(value)" pairs: ${resumableMetadataKeys.join(', ')}; filename and title required, ` +
        'the others as the multipart upload takes them (tags and copyrightInfo as JSON text)',
    ),
});

export const ResumableUploadOffsetHeaders = z.object({ 'tus-resumable': TusResumable });

export const AppendResumableUploadHeaders = z.object({
  'tus-resumable': TusResumable,
  'upload-offset': Digits.describe('where these bytes start: the offset HEAD answered'),
  'content-type': z.literal('application/offset+octet-stream'),
});

const common = {
  service: 'file-conversion',
  auth: 'session',
  action: 'files.write',
  params: ResumableUploadParams,
} as const;

export const resumableUploadRoutes = defineRoutes([
  {
    id: 'createResumableUpload',
    method: 'post',
    path: constants.upload.resumablePath,
    service: 'file-conversion',
    auth: 'session',
    action: 'files.write',
    summary:
      'Start a resumable (tus 1.0) upload of a photo or video up to 2 GiB: size, fields and the tier file limit are ' +
      'checked before any byte is stored (MEDIA_TOO_LARGE, FILE_REQUIRED, VALIDATION, FILE_LIMIT_REACHED); an upload ' +
      'left unfinished expires (Upload-Expires) and its parts are removed',
    headers: CreateResumableUploadHeaders,
    response: z.never(),
    successStatus: 201,
    responseHeaders: {
      Location: 'the upload, relative: /api/files/uploads/<uploadId>',
      'Upload-Expires': 'when an unfinished upload is removed',
      'Tus-Resumable': TUS_VERSION,
    },
  },
  {
    ...common,
    id: 'resumableUploadOffset',
    method: 'head',
    path: `${constants.upload.resumablePath}/:uploadId`,
    summary: "How many bytes of one's own upload are stored (another member's, or an expired one, is 404)",
    headers: ResumableUploadOffsetHeaders,
    response: z.never(),
    responseHeaders: {
      'Upload-Offset': 'bytes stored: the next PATCH starts here',
      'Upload-Length': 'size of the whole file',
      'Cache-Control': 'no-store',
    },
  },
  {
    ...common,
    id: 'appendResumableUpload',
    method: 'patch',
    path: `${constants.upload.resumablePath}/:uploadId`,
    summary:
      'Send the next bytes (from Upload-Offset; 409 when it is not the stored offset). The call that completes the ' +
      'upload decides the type from the bytes as the multipart upload does (a document over 10 MB is FILE_TOO_LARGE), ' +
      'creates the file and queues its conversion: 200 with the file; a refusal stores nothing',
    headers: AppendResumableUploadHeaders,
    rawBody: 'application/offset+octet-stream',
    response: z.never(),
    successStatus: 204,
    responseHeaders: { 'Upload-Offset': 'bytes stored after this call' },
    alsoAnswers: { status: 200, description: 'The upload is complete: the file, converting', response: FileSummary },
  },
  {
    ...common,
    id: 'cancelResumableUpload',
    method: 'delete',
    path: `${constants.upload.resumablePath}/:uploadId`,
    summary: 'Abandon an unfinished upload: its stored parts are removed',
    headers: ResumableUploadOffsetHeaders,
    response: z.never(),
    successStatus: 204,
  },
]);
