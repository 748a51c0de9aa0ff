// The page-image path's two calls to file-conversion (media.ts): the access decision and the image's bytes, each
// coalesced (callers missing at once share one call) and counted.
import {
  IDENTITY_HEADER,
  type WorkspaceRole,
  internalMediaAccessPath,
  internalMediaPath,
  MediaAccessAnswer,
} from '@pagecast/contracts';
import { signDeviceIdentityHeader, signIdentityHeader } from '@pagecast/service-kit';
import type { AccessCache, AccessEntry, ByteCache } from './media-caches';

export type MediaCaller =
  | { kind: 'member'; userId: string; sessionId: string; workspaceId?: string; role?: WorkspaceRole }
  | { kind: 'device'; deviceId: string; screenId: string; ownerId: string };

export class UpstreamError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export interface UpstreamOptions {
  filesUrl: string;
  internalSecret: string;
  /** upper bound on how long any decision is remembered, whatever file-conversion grants */
  accessMaxMs: number;
  timeoutMs: number;
}

/** upstream calls made: access checks and byte fetches, and the byte cache's hits (for tests and metrics) */
export interface MediaCounts {
  checks: number;
  fetches: number;
  hits: number;
}

export function mediaUpstream(opts: UpstreamOptions, access: AccessCache, bytes: ByteCache, counts: MediaCounts) {
  const checking = new Map<string, Promise<AccessEntry>>();
  const fetching = new Map<string, Promise<Buffer | null>>();
  const filesUrl = opts.filesUrl.replace(/\/$/, '');

  const identityHeader = (caller: MediaCaller) =>
    caller.kind === 'member'
      ? signIdentityHeader(caller, opts.internalSecret)
      : signDeviceIdentityHeader(caller, opts.internalSecret);

  const upstreamHeaders = (caller: MediaCaller, requestId: string) => ({
    [IDENTITY_HEADER]: identityHeader(caller),
    'x-request-id': requestId,
  });

  const check = (caller: MediaCaller, cacheKey: string, key: string, requestId: string): Promise<AccessEntry> => {
    let pending = checking.get(cacheKey);
    if (pending) return pending;
    const generation = access.generation;
    pending = (async () => {
      counts.checks++;
      const res = await fetch(`${filesUrl}${internalMediaAccessPath(key)}`, {
        headers: upstreamHeaders(caller, requestId),
        signal: AbortSignal.timeout(opts.timeoutMs),
      });
      if (res.status !== 200) {
        await res.body?.cancel();
        throw new UpstreamError(`media access check answered ${res.status}`, res.status);
      }
      const answer = MediaAccessAnswer.parse(await res.json());
      const entry: AccessEntry = {
        access: answer.access,
        subject: caller.kind === 'member' ? caller.userId : caller.ownerId,
        ...(caller.kind === 'device' ? { screenId: caller.screenId } : {}),
      };
      // An answer asked before an event that may change it is used once, not remembered.
      if (access.generation === generation) access.set(cacheKey, entry, Math.min(answer.maxAgeMs, opts.accessMaxMs));
      return entry;
    })().finally(() => checking.delete(cacheKey));
    checking.set(cacheKey, pending);
    return pending;
  };

  const fetchBytes = (caller: MediaCaller, hash: string, key: string, requestId: string): Promise<Buffer | null> => {
    let pending = fetching.get(hash);
    if (pending) return pending;
    pending = (async () => {
      counts.fetches++;
      const res = await fetch(`${filesUrl}${internalMediaPath(key)}`, {
        headers: upstreamHeaders(caller, requestId),
        signal: AbortSignal.timeout(opts.timeoutMs),
      });
      if (res.status === 404) {
        await res.body?.cancel();
        return null;
      }
      if (res.status !== 200) {
        await res.body?.cancel();
        throw new UpstreamError(`media fetch answered ${res.status}`, res.status);
      }
      const body = Buffer.from(await res.arrayBuffer());
      bytes.set(hash, body);
      return body;
    })().finally(() => fetching.delete(hash));
    fetching.set(hash, pending);
    return pending;
  };

  return { check, fetchBytes };
}
