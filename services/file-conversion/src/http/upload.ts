import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { constants, type FileSummary, UploadFileFields, validationMessagesJa } from '@pagecast/contracts';
import { AppError, auditActor, decodedBody, requireActor, zodIssues } from '@pagecast/service-kit';
import busboy from 'busboy';
import type { Request, Response } from 'express';
import type { ServiceContext } from '../context';
import { type ReceivedFile, uploadFile } from '../use-cases/upload-file';
import { toFileSummary } from '../use-cases/present';

const FIELD_ALLOWANCE = 256 * 1024;

interface Received {
  fields: Record<string, string | string[]>;
  file?: ReceivedFile;
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

export function validationError(issues: ReturnType<typeof zodIssues>, cause?: unknown): AppError {
  return new AppError('VALIDATION', { message: issues[0]?.message, issues, cause });
}

export function fileAndTitleRequired(path: string): AppError {
  const key = 'validation.fileAndTitleRequired';
  return new AppError('FILE_REQUIRED', { issues: [{ path, key, message: validationMessagesJa[key] ?? key }] });
}

/**
 * POST /api/files/upload: streams the body, parses its fields with the contract's schema, then the use case checks
 * every other rule before anything is stored (a refusal leaves nothing behind). The temp file goes once answered,
 * unless the local originals keep it.
 */
export async function handleUpload(ctx: ServiceContext, req: Request, res: Response): Promise<void> {
  // the file is the workspace's (its owner's id), counted against the owner's plan's limits
  const { workspaceId: userId } = requireActor(req, 'files.write');
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
    const doc = await uploadFile(
      ctx,
      userId,
      parsed.data,
      file,
      () => {
        keep = file.path;
      },
      auditActor(req),
    );
    const body: FileSummary = toFileSummary(doc);
    res.json(body);
  } finally {
    await Promise.all(temps.filter((t) => t !== keep).map((t) => rm(t, { force: true })));
  }
}
