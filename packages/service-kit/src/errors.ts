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

/** Errors thrown by express/body-parser carry `type` and `status`; map the ones a client can cause. */
function fromBodyParser(err: unknown): AppError | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const { type } = err as { type?: unknown };
  if (type === 'entity.too.large') return new AppError('PAYLOAD_TOO_LARGE', { cause: err });
  if (type === 'entity.parse.failed') return new AppError('VALIDATION', { cause: err, issues: [] });
  if (type === 'encoding.unsupported' || type === 'charset.unsupported')
    return new AppError('UNSUPPORTED_MEDIA_TYPE', { cause: err });
  return undefined;
}

/** Maps anything thrown to an AppError; undefined means unexpected (a 500). */
export function toAppError(err: unknown): AppError | undefined {
  if (err instanceof AppError) return err;
  if (err instanceof ZodError) return new AppError('VALIDATION', { issues: zodIssues(err), cause: err });
  if (isDuplicateKeyError(err)) return new AppError('CONFLICT', { cause: err });
  return fromBodyParser(err);
}

/** The one error handler: `{ code, message, issues? }`; unexpected errors become 500 INTERNAL with a correlationId. */
export function errorHandler(logger: pino.Logger): ErrorRequestHandler {
  return (err, req, res, next) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    const appError = toAppError(err);
    if (appError) {
      const body: Record<string, unknown> = { code: appError.code, message: appError.message };
      if (appError.issues) body.issues = appError.issues;
      if (appError.details) Object.assign(body, { details: appError.details });
      if (appError.status >= 500) logger.error({ err, reqId: req.id }, appError.message);
      res.status(appError.status).json(body);
      return;
    }
    const correlationId = typeof req.id === 'string' ? req.id : randomUUID();
    logger.error({ err, correlationId, method: req.method, url: req.originalUrl }, 'unexpected error');
    res.status(500).json({ code: 'INTERNAL', message: errorMessagesJa.INTERNAL, correlationId });
  };
}
