// The page-image path's two calls to file-conversion (media.ts): the access decision and the image's bytes, each
// coalesced (callers missing at once share one call) and counted. A display's decision goes over the display-read
// relay (core NATS, gathered with the other displays' calls) once it is connected, a member's over HTTP.
import {
  DEVICE_MEDIA_ACCESS_CALL,
  IDENTITY_HEADER,
  type WorkspaceRole,
  internalMediaAccessPath,
  internalMediaPath,
  MediaAccessAnswer,
} from '@pagecast/contracts';
import { type DeviceRpcClient, signDeviceIdentityHeader, signIdentityHeader } from '@pagecast/service-kit';
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
  /**
   * The display-read relay, once NATS is connected (server.ts): a display's access check goes there, where a boot's
   * or an edit's thousands of checks at once travel together. Until then (and without it), over HTTP.
   */
  deviceReads?: () => DeviceRpcClient | undefined;
  /** a display's signed identity header, reused for a few seconds (device-headers.ts) */
  deviceHeader?: (device: { deviceId: string; screenId: string; ownerId: string }) => string;
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
      : (opts.deviceHeader?.(caller) ?? signDeviceIdentityHeader(caller, opts.internalSecret));

  /** The decision as file-conversion answers it: over the relay for a display when it is there, else over HTTP. */
  const askAccess = async (caller: MediaCaller, key: string, requestId: string): Promise<MediaAccessAnswer> => {
    const relay = caller.kind === 'device' ? opts.deviceReads?.() : undefined;
    if (relay) {
      const text = await relay(DEVICE_MEDIA_ACCESS_CALL, identityHeader(caller), JSON.stringify({ body: { key } }));
      const answer = JSON.parse(text) as { status: number; body: unknown };
      if (answer.status === 200) return MediaAccessAnswer.parse(answer.body);
      // no file-conversion answering (none running, or none in time): 503, and the display asks again
      if (answer.status === 503) throw new Error('media access check: file-conversion unavailable over the relay');
      // 404 is an older file-conversion, without this call (the check itself refuses with 200): asked over HTTP, so
      // the gateway may be upgraded first
      if (answer.status !== 404) {
        throw new UpstreamError(`media access check answered ${answer.status}`, answer.status);
      }
    }
    const res = await fetch(`${filesUrl}${internalMediaAccessPath(key)}`, {
      headers: upstreamHeaders(caller, requestId),
      signal: AbortSignal.timeout(opts.timeoutMs),
    });
    if (res.status !== 200) {
      await res.body?.cancel();
      throw new UpstreamError(`media access check answered ${res.status}`, res.status);
    }
    return MediaAccessAnswer.parse(await res.json());
  };

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
      const answer = await askAccess(caller, key, requestId);
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
