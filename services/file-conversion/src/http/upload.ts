import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  constants,
  type ErrorCode,
  type FileSummary,
  isErrorCode,
  UploadFileFields,
  validationMessagesJa,
} from '@pagecast/contracts';
import { AppError, decodedBody, requireIdentity, zodIssues } from '@pagecast/service-kit';
import busboy from 'busboy';
import type { Request, Response } from 'express';
import { guardZip, isConversionError, sniffFile } from '../conversion/index.ts';
import type { FileDoc } from '../data';
import { storageKeys } from '../domain';
import type { ServiceContext } from '../context';
import { toFileSummary } from './present';

const FIELD_ALLOWANCE = 256 * 1024;

interface Received {
  fields: Record<string, string | string[]>;
  file?: { path: string; filename: string; size: number };
}

/** Thrown while streaming, answered before the rest of the body is read. */
const tooLarge = () => new AppError('FILE_TOO_LARGE');

/**
 * Streams the multipart body: the file field `pdf` to a temp file (never whole in memory), the text fields into
 * an object. The size limit holds while streaming: the first byte over 10 MB stops it.
 */
function receive(req: Request, dir: string, temps: string[]): Promise<Received> {
  const maxBytes = constants.upload.maxBytes;
  return new Promise((resolve, reject) => {
    // A Content-Encoding the client declared is honoured (or refused), never fed to the multipart parser as is.
    let body: Readable;
    try {
      body = decodedBody(req);
    } catch (err) {
      reject(err);
      return;
    }
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: req.headers,
        defParamCharset: 'utf8',
        // busboy signals 'limit' on reaching the size, so one byte over ours
        limits: { fileSize: maxBytes + 1, files: 1, fields: 40, fieldSize: 64 * 1024, parts: 50 },
      });
    } catch (err) {
      reject(new AppError('UNSUPPORTED_MEDIA_TYPE', { cause: err }));
      return;
    }
    const fields: Record<string, string | string[]> = {};
    let file: Received['file'];
    let writing: Promise<void> | undefined;
    let failed = false;
    const fail = (err: unknown) => {
      if (failed) return;
      failed = true;
      body.unpipe(bb);
      req.resume(); // discard the rest; the answer goes out at once
      reject(err);
    };

    bb.on('field', (name, value) => {
      const prev = fields[name];
      fields[name] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
    });
    bb.on('file', (name, stream, info) => {
      if (name !== constants.upload.fileField || file) {
        stream.resume();
        return;
      }
      const path = join(dir, randomUUID());
      temps.push(path);
      const current = { path, filename: info.filename || 'upload', size: 0 };
      file = current;
      stream.on('data', (chunk: Buffer) => {
        current.size += chunk.length;
      });
      stream.on('limit', () => fail(tooLarge()));
      writing = pipeline(stream, createWriteStream(path)).catch((err) => {
        if (!failed) fail(err);
      });
    });
    bb.on('error', (err) => fail(new AppError('VALIDATION', { cause: err, issues: [] })));
    bb.on('close', () => {
      if (failed) return;
      void (writing ?? Promise.resolve()).then(() => {
        if (!failed) resolve({ fields, ...(file ? { file } : {}) });
      });
    });
    req.on('aborted', () => fail(new AppError('VALIDATION', { message: 'upload aborted', issues: [] })));
    body.on('error', (err) =>
      fail(err instanceof AppError ? err : new AppError('VALIDATION', { message: 'upload aborted', issues: [] })),
    );
    body.pipe(bb);
  });
}

/** A job's message id from the file and attempt: the same job published twice is stored once. */
export function jobId(fileId: string, attempt: number): string {
  const h = createHash('sha256').update(`${fileId}:${attempt}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

function validationError(issues: ReturnType<typeof zodIssues>, cause?: unknown): AppError {
  return new AppError('VALIDATION', { message: issues[0]?.message, issues, cause });
}

function fileAndTitleRequired(path: string): AppError {
  const key = 'validation.fileAndTitleRequired';
  return new AppError('FILE_REQUIRED', { issues: [{ path, key, message: validationMessagesJa[key] ?? key }] });
}

/** POST /api/files/upload: every rule is checked before anything is stored; a refusal leaves nothing behind. */
export async function uploadFile(ctx: ServiceContext, req: Request, res: Response): Promise<void> {
  const { userId } = requireIdentity(req);
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > constants.upload.maxBytes + FIELD_ALLOWANCE) {
    req.resume();
    throw tooLarge();
  }
  const dir = join(tmpdir(), 'pagecast-uploads');
  await mkdir(dir, { recursive: true });
  const temps: string[] = [];
  let keep: string | undefined;
  try {
    let received: Received;
    try {
      received = await receive(req, dir, temps);
    } catch (err) {
      if (err instanceof AppError && err.code === 'FILE_TOO_LARGE') res.setHeader('Connection', 'close');
      throw err;
    }
    const { fields, file } = received;
    if (!file || file.size === 0) throw fileAndTitleRequired(constants.upload.fileField);
    const title = fields.title;
    if (typeof title !== 'string' || title.trim() === '') throw fileAndTitleRequired('title');

    const parsed = UploadFileFields.safeParse(fields);
    if (!parsed.success) throw validationError(zodIssues(parsed.error), parsed.error);
    const input = parsed.data;

    // The type from the bytes (the name is never trusted), and the ZIP bounds of an Office file.
    let kind: FileDoc['kind'];
    try {
      const sniffed = await sniffFile(file.path);
      if (sniffed.zip) guardZip(sniffed.zip);
      kind = sniffed.kind;
    } catch (err) {
      if (isConversionError(err)) {
        const code: ErrorCode = isErrorCode(err.code) ? err.code : 'FILE_TYPE_UNSUPPORTED';
        throw new AppError(code, { status: err.status, cause: err });
      }
      throw err;
    }

    const fileId = randomUUID();
    const slot = await ctx.data.owners.reserveSlot(userId, fileId);
    if (!slot.ok) throw new AppError('FILE_LIMIT_REACHED', { details: { limit: slot.limit } });

    const now = new Date();
    const doc: FileDoc = {
      _id: fileId,
      userId,
      title: input.title,
      filename: file.filename,
      kind,
      sizeBytes: file.size,
      pageCount: 0,
      displayDuration: input.displayDuration,
      displayMode: input.displayMode,
      tags: input.tags,
      isPublished: input.isPublished,
      publishPrice: input.publishPrice ?? null,
      status: 'processing',
      disabledReason: null,
      conversion: { pagesDone: 0, pagesTotal: 0, attempts: 0, finishedAt: null },
      thumbKey: null,
      createdAt: now,
      updatedAt: now,
    };
    const objectKey = storageKeys.original(fileId);
    let stored = false;
    try {
      await ctx.data.storage.putFile(objectKey, file.path, constants.upload.mimeTypes[kind]);
      stored = true;
      await ctx.data.files.create(doc);
      if (input.copyrightInfo) {
        await ctx.data.files.setCopyrightInfo(fileId, input.copyrightInfo);
        if (input.isPublished) {
          await ctx.data.files.setDefaultAuthorProfile(userId, input.copyrightInfo);
          await ctx.data.files.recordUserConfirmation(fileId);
        }
      }
    } catch (err) {
      await ctx.data.files.deleteFileDoc(fileId).catch(() => {});
      await ctx.data.files.deleteCopyright(fileId).catch(() => {});
      if (stored) await ctx.data.storage.remove([objectKey]).catch(() => {});
      await ctx.data.owners.releaseSlot(fileId);
      throw err;
    }
    // The file exists now; from here the outbox makes sure the job and the news get out.
    if (ctx.localOriginals) {
      ctx.localOriginals.put(fileId, file.path);
      keep = file.path;
    }
    await ctx.outbox.add(
      'files.conversion.requested.v1',
      { fileId, ownerId: userId, objectKey, kind, attempt: 1 },
      { id: jobId(fileId, 1), subjectSuffix: ctx.settings.CONVERSION_QUEUE },
    );
    await ctx.outbox.add('files.file.uploaded.v1', {
      fileId,
      ownerId: userId,
      title: doc.title,
      kind,
      sizeBytes: file.size,
      uploadedAt: now.toISOString(),
    });
    const body: FileSummary = toFileSummary(doc);
    res.json(body);
  } finally {
    await Promise.all(temps.filter((t) => t !== keep).map((t) => rm(t, { force: true })));
  }
}
