// The resumable upload (tus 1.0, @tus/server on @tus/s3-store): photos and videos up to 2 GiB, resumed after a
// dropped connection from the offset HEAD answers, on any instance (the parts are in the bucket).
import { randomUUID } from 'node:crypto';
import {
  constants,
  type ErrorCode,
  type FileSummary,
  resumableMetadataKeys,
  ResumableUploadParams,
  UploadFileFields,
} from '@pagecast/contracts';
import { AppError, type AuditActor, auditActor, requireActor, zodIssues } from '@pagecast/service-kit';
import { Server, type ServerOptions } from '@tus/server';
import { type NextFunction, type Request, type Response, Router } from 'express';
import { NodeRequest, sendNodeResponse } from 'srvx/node';
import type { ServiceContext } from '../context';
import { resumableKey, uploadIdOfKey } from '../data';
import { finishResumableUpload, startResumableUpload } from '../use-cases/resumable-upload';
import { toFileSummary } from '../use-cases/present';
import { fileAndTitleRequired, validationError } from './upload';

type TusRequest = Parameters<NonNullable<ServerOptions['onUploadCreate']>>[0];
type Metadata = Record<string, string | null> | undefined;

/** What the tus library reports as an error: ours (AppError), or its own protocol answer. */
type TusError = Error | { status_code: number; body: string };

/** The tus library's refusals in the project's codes (the status kept: clients act on it, 409 and 423 retry). */
function appErrorOf(err: TusError): AppError | undefined {
  if (err instanceof AppError) return err;
  if (!('status_code' in err)) return undefined; // unexpected: the error handler answers 500 with its id
  const status = err.status_code;
  const code: ErrorCode =
    status === 404 || status === 410
      ? 'NOT_FOUND'
      : status === 409 || status === 423
        ? 'CONFLICT'
        : status === 413
          ? 'MEDIA_TOO_LARGE'
          : status === 415
            ? 'UNSUPPORTED_MEDIA_TYPE'
            : status >= 500
              ? 'INTERNAL'
              : 'MALFORMED_REQUEST';
  return new AppError(code, { status, cause: new Error(err.body.trim()) });
}

/** Upload-Metadata → the multipart upload's text fields, parsed by the same schema; filename and title required. */
function fieldsOf(metadata: Metadata): { filename: string; fields: UploadFileFields } {
  const text: Record<string, string> = {};
  for (const key of resumableMetadataKeys) {
    const value = metadata?.[key];
    if (typeof value === 'string') text[key] = value;
  }
  const filename = text.filename?.trim();
  if (!filename) throw fileAndTitleRequired('filename');
  if (!text.title?.trim()) throw fileAndTitleRequired('title');
  const { filename: _, ...rest } = text;
  const parsed = UploadFileFields.safeParse(rest);
  if (!parsed.success) throw validationError(zodIssues(parsed.error), parsed.error);
  return { filename: filename.slice(0, 255), fields: parsed.data };
}

/**
 * The tus endpoints under constants.upload.resumablePath. The caller's identity (the gateway's signed header) is
 * part of every upload's key, so another member's upload id names nothing and answers 404. Refusals (ours or the
 * library's) answer through the service's error handler: a stable code, no-store, nothing stored.
 */
export function resumableUploadRouter(ctx: ServiceContext): Router {
  const base = constants.upload.resumablePath;
  const callers = new WeakMap<TusRequest, string>();
  const refusals = new WeakMap<TusRequest, TusError>();
  const actors = new WeakMap<TusRequest, AuditActor>();
  const callerOf = (req: TusRequest): string => {
    const userId = callers.get(req);
    if (!userId) throw new AppError('UNAUTHORIZED');
    return userId;
  };

  const tus = new Server({
    path: base,
    datastore: ctx.data.resumable,
    locker: ctx.data.uploadLocks.locker,
    // the Location is the gateway's path as well as ours: relative, no host to rewrite
    relativeLocation: true,
    // same origin only (the gateway's); no CORS answer for other sites
    allowedOrigins: () => false,
    namingFunction: (req) => resumableKey(callerOf(req), randomUUID()),
    generateUrl: (_req, { path, id }) => `${path}/${uploadIdOfKey(id)}`,
    getFileIdFromRequest: (req, lastPath) => {
      const parsed = ResumableUploadParams.safeParse({ uploadId: lastPath });
      return parsed.success ? resumableKey(callerOf(req), parsed.data.uploadId) : undefined;
    },
    async onUploadCreate(req, upload) {
      const userId = callerOf(req);
      // no deferred length: the size rules hold before any byte is stored
      if (upload.size === undefined) throw new AppError('MALFORMED_REQUEST');
      if (upload.size === 0) throw fileAndTitleRequired(constants.upload.fileField);
      const { filename } = fieldsOf(upload.metadata);
      await startResumableUpload(ctx, userId, { filename, size: upload.size });
      // only the keys the upload reads are kept with it
      const kept = Object.fromEntries(
        resumableMetadataKeys.flatMap((k) => (upload.metadata?.[k] ? [[k, upload.metadata[k]]] : [])),
      );
      return { metadata: kept };
    },
    async onUploadFinish(req, upload) {
      const userId = callerOf(req);
      const { filename, fields } = fieldsOf(upload.metadata);
      const doc = await finishResumableUpload(
        ctx,
        userId,
        {
          key: upload.id,
          filename,
          size: upload.size ?? upload.offset,
          fields,
        },
        actors.get(req) ?? { userId, address: 'unknown' },
      );
      const body: FileSummary = toFileSummary(doc);
      // tus says 204; tus clients take any 2xx, and the dialog reads the file from this answer
      return {
        status_code: 200,
        headers: { 'Content-Type': 'application/json; charset=utf-8' },
        body: JSON.stringify(body),
      };
    },
    onResponseError(req, err) {
      refusals.set(req, err);
      return undefined;
    },
  });

  const handle = async (req: Request, res: Response, next: NextFunction) => {
    // the upload is the workspace's (its owner's id): the file lands there, under the owner's plan's limits
    const { workspaceId: userId } = requireActor(req, 'files.write');
    // the bytes are stored as they come: an encoded body would be stored encoded
    const encoding = req.headers['content-encoding'];
    if (encoding && encoding !== 'identity') throw new AppError('UNSUPPORTED_MEDIA_TYPE');
    // Upload-Length is required (no deferred length)
    if (req.method === 'POST' && !/^\d+$/.test(String(req.headers['upload-length'] ?? ''))) {
      throw new AppError('MALFORMED_REQUEST');
    }
    const request = new NodeRequest({ req, res }) as unknown as TusRequest;
    callers.set(request, userId);
    actors.set(request, auditActor(req));
    const answer = await tus.handleWeb(request);
    const refused = refusals.get(request);
    if (refused) {
      const err = appErrorOf(refused);
      if (answer.headers.get('connection') === 'close') res.setHeader('Connection', 'close');
      return next(err ?? refused);
    }
    answer.headers.set('Cache-Control', 'no-store');
    await sendNodeResponse(res, answer);
  };

  const router = Router();
  router.all([base, `${base}/:uploadId`], handle);
  return router;
}
