import { randomUUID } from 'node:crypto';
import {
  type ErrorCode,
  type ErrorIssue,
  errorMessagesJa,
  errorStatus,
  validationMessagesJa,
} from '@pagecast/contracts';
import type { ErrorRequestHandler } from 'express';
import type { pino } from 'pino';
import { ZodError, type z } from 'zod';

type Issue = z.infer<typeof ErrorIssue>;

/** The one error type: a stable code, its HTTP status and a (Japanese by default) message. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly issues: Issue[] | undefined;
  readonly details: Record<string, unknown> | undefined;

  constructor(
    code: ErrorCode,
    opts: {
      status?: number;
      message?: string;
      issues?: Issue[];
      cause?: unknown;
      details?: Record<string, unknown>;
    } = {},
  ) {
    super(opts.message ?? errorMessagesJa[code] ?? code, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = opts.status ?? errorStatus[code] ?? 500;
    this.issues = opts.issues;
    this.details = opts.details;
  }
}

/** zod issues → API issues: `key` is the schema's message key, `message` its Japanese text (the key when unknown). */
export function zodIssues(error: ZodError): Issue[] {
  return error.issues.map((i) => ({
    path: i.path.map(String).join('.'),
    message: validationMessagesJa[i.message] ?? i.message,
    key: i.message,
  }));
}

/** Parses `value` or throws AppError('VALIDATION') carrying the issues. */
export function parseWith<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new AppError('VALIDATION', { issues: zodIssues(result.error), cause: result.error });
}

/** MongoDB E11000 (unique index violated); FerretDB reports the same code. */
export function isDuplicateKeyError(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 11000;
}

/** The per-record errors of an unordered insert (the driver's MongoBulkWriteError), or undefined for another error. */
export function bulkWriteErrors(err: unknown): Array<{ code: number; index: number }> | undefined {
  if (!err || typeof err !== 'object' || !('writeErrors' in err)) return undefined;
  const list = (err as { writeErrors: unknown }).writeErrors;
  const arr = Array.isArray(list) ? list : [list];
  return arr.map((e) => ({
    code: Number((e as { code?: unknown }).code),
    index: Number((e as { index?: unknown }).index),
  }));
}

/**
 * Inserts `docs` unordered, each under its own unique key (the one write FerretDB makes atomic: who takes a key), and
 * answers the positions of those whose key was already stored (the rest are stored). Any other failure is thrown.
 */
export async function insertManyOnce<T>(
  collection: { insertMany(docs: T[], opts: { ordered: false }): Promise<unknown> },
  docs: T[],
): Promise<number[]> {
  try {
    await collection.insertMany(docs, { ordered: false });
    return [];
  } catch (err) {
    const writeErrors = bulkWriteErrors(err);
    if (!writeErrors || writeErrors.some((e) => e.code !== 11000 || docs[e.index] === undefined)) throw err;
    return writeErrors.map((e) => e.index);
  }
}

/** An unordered insert that failed only on keys already stored (what was new is stored). */
export function onlyDuplicateKeys(err: unknown): boolean {
  const errors = bulkWriteErrors(err);
  return errors ? errors.length > 0 && errors.every((e) => e.code === 11000) : isDuplicateKeyError(err);
}

/** The code of a client error (4xx) that carries no code of ours, by its status; anything else is malformed. */
const codeOfClientStatus: Partial<Record<number, ErrorCode>> = {
  404: 'NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
};

/**
 * Errors thrown by express, its router and body-parser (http-errors) carry `status` and often `type`: a client error
 * (a body not encoded as its Content-Encoding says, a broken %-escape in a path parameter, a body cut short) is the
 * client's fault and answers 4xx with a stable code, never 500.
 */
function fromHttpError(err: unknown): AppError | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const { type, status, statusCode, expose } = err as {
    type?: unknown;
    status?: unknown;
    statusCode?: unknown;
    expose?: unknown;
  };
  if (type === 'entity.too.large') return new AppError('PAYLOAD_TOO_LARGE', { cause: err });
  if (type === 'entity.parse.failed') return new AppError('VALIDATION', { cause: err, issues: [] });
  if (type === 'encoding.unsupported' || type === 'charset.unsupported')
    return new AppError('UNSUPPORTED_MEDIA_TYPE', { cause: err });
  // Only http-errors' client errors (expose: true): a driver's 4xx (S3 403, say) is our fault, not the client's.
  const given = typeof status === 'number' ? status : statusCode;
  if (expose === true && typeof given === 'number' && Number.isInteger(given) && given >= 400 && given < 500)
    return new AppError(codeOfClientStatus[given] ?? 'MALFORMED_REQUEST', { cause: err });
  return undefined;
}

/** Maps anything thrown to an AppError; undefined means unexpected (a 500). */
export function toAppError(err: unknown): AppError | undefined {
  if (err instanceof AppError) return err;
  if (err instanceof ZodError) return new AppError('VALIDATION', { issues: zodIssues(err), cause: err });
  if (isDuplicateKeyError(err)) return new AppError('CONFLICT', { cause: err });
  if (err instanceof URIError) return new AppError('MALFORMED_REQUEST', { cause: err });
  return fromHttpError(err);
}

/**
 * The status and body an error answers with, `{ code, message, issues?, details? }`: the HTTP routes' (errorHandler)
 * and the device socket's replies (device-rpc.ts) alike. Unexpected errors are 500 INTERNAL with a correlationId.
 */
export function errorAnswer(
  err: unknown,
  logger: pino.Logger,
  context: { correlationId?: string; reqId?: unknown; method?: string; url?: string } = {},
): { status: number; body: Record<string, unknown> } {
  const appError = toAppError(err);
  if (appError) {
    const body: Record<string, unknown> = { code: appError.code, message: appError.message };
    if (appError.issues) body.issues = appError.issues;
    if (appError.details) Object.assign(body, { details: appError.details });
    if (appError.status >= 500) logger.error({ err, reqId: context.reqId }, appError.message);
    return { status: appError.status, body };
  }
  const correlationId = context.correlationId ?? randomUUID();
  logger.error({ err, correlationId, method: context.method, url: context.url }, 'unexpected error');
  return { status: 500, body: { code: 'INTERNAL', message: errorMessagesJa.INTERNAL, correlationId } };
}

/** The one error handler: `{ code, message, issues? }`; unexpected errors become 500 INTERNAL with a correlationId. */
export function errorHandler(logger: pino.Logger): ErrorRequestHandler {
  return (err, req, res, next) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    // An error answer may say what this member may or may not see: never cached, whatever the route had set.
    res.setHeader('Cache-Control', 'no-store');
    const { status, body } = errorAnswer(err, logger, {
      reqId: req.id,
      correlationId: typeof req.id === 'string' ? req.id : undefined,
      method: req.method,
      url: req.originalUrl,
    });
    res.status(status).json(body);
  };
}
