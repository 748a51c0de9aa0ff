// The client's calls (spec points 7 and 8): credentials always sent, JSON bodies, and any non-OK answer becomes
// an error whose text is '<status>: <body or status text>'.
import type { QueryFunction } from '@tanstack/react-query';
import { apiFetch } from './workspace';

/** The one error type of the client; its message is exactly '<status>: <body or statusText>'. */
export class HttpError extends Error {
  readonly status: number;
  readonly body: string;
  /** the error code of a JSON error body ({ code, message }), if any */
  readonly code: string | undefined;
  /** the human text of a JSON error body, if any */
  readonly serverMessage: string | undefined;
  /** the whole parsed JSON body, if it was JSON (e.g. requiresVerification, email) */
  readonly data: Record<string, unknown> | undefined;

  constructor(status: number, statusText: string, body: string) {
    super(formatHttpError(status, statusText, body));
    this.name = 'HttpError';
    this.status = status;
    this.body = body;
    const data = parseJsonObject(body);
    this.data = data;
    this.code = typeof data?.code === 'string' ? data.code : undefined;
    this.serverMessage = typeof data?.message === 'string' && data.message ? data.message : undefined;
  }
}

function parseJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export function formatHttpError(status: number, statusText: string, body: string): string {
  return `${status}: ${body || statusText}`;
}

export async function throwIfResNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const body = await res.text().catch(() => '');
  throw new HttpError(res.status, res.statusText, body);
}

/** The spec's check for a logged-out answer: the message starts with 401 and mentions Unauthorized. */
export function isUnauthorizedError(error: unknown): boolean {
  return error instanceof Error && /^401: .*Unauthorized/.test(error.message);
}

/** A call with a JSON body (or none); throws HttpError on a non-OK answer. */
export async function apiRequest(method: string, url: string, data?: unknown): Promise<Response> {
  const res = await apiFetch(url, {
    method,
    headers: data === undefined ? {} : { 'Content-Type': 'application/json' },
    body: data === undefined ? undefined : JSON.stringify(data),
    credentials: 'include',
  });
  await throwIfResNotOk(res);
  return res;
}

export type UnauthorizedBehavior = 'returnNull' | 'throw';

let firstRead: number | undefined;

/**
 * Notes the server's time of a read (its Date header). The earliest one is the page's first read: a live stream
 * opened later sends it as `since` (GET /api/events), so the gateway need not tell it to refetch everything for a
 * change that every read of the page came after. Every reader of the page notes its answers.
 */
export function noteServerRead(res: Response): void {
  const at = Date.parse(res.headers.get('date') ?? '');
  if (Number.isFinite(at) && (firstRead === undefined || at < firstRead)) firstRead = at;
}

/** The server's time of this page's first noted read (ms since 1970), if any. */
export function firstServerRead(): number | undefined {
  return firstRead;
}

/**
 * A GET /api/events URL with `since`: the page's first read, when one was noted. The gateway then tells the stream's
 * first open to resync only for changes that reads made at that time may not include (docs/platform.md).
 */
export function withReadSince(url: string, since: number | undefined = firstRead): string {
  if (since === undefined || !Number.isFinite(since)) return url;
  return `${url}${url.includes('?') ? '&' : '?'}since=${Math.floor(since)}`;
}

/** The default read: a GET to the path made of the query key's segments. */
export function getQueryFn<T>(options: { on401: UnauthorizedBehavior }): QueryFunction<T | null> {
  return async ({ queryKey, signal }) => {
    const res = await apiFetch(queryKey.join('/'), { credentials: 'include', signal });
    noteServerRead(res);
    if (options.on401 === 'returnNull' && res.status === 401) return null;
    await throwIfResNotOk(res);
    return (await res.json()) as T;
  };
}
