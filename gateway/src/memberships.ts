// The workspace a call acts in (api-routes.ts): the request names it by the header X-Pagecast-Workspace; the caller's
// role there comes from account's key-value bucket of memberships (WORKSPACE_MEMBERS_BUCKET), which every gateway
// watches into memory: its values at start, then each put and delete. A delete is a removal: the person's open live
// streams acting in that workspace end at once (feeds.ts wires onRemoved), and their next call is refused. A put with
// another role ends those streams too (onRoleChanged): the page, hearing its stream end, reads its role again.
import { readCookie } from './cookies';
import {
  WORKSPACE_HEADER,
  WORKSPACE_MEMBERS_BUCKET,
  WorkspaceMembershipValue,
  type WorkspaceRole,
} from '@pagecast/contracts';
import { followBucket, type Nats, openKeyValue } from '@pagecast/service-kit';
import type { IncomingHttpHeaders } from 'node:http';
import type { Logger } from './log';

/** Who belongs to which workspace, as this gateway last heard: `<workspaceId>.<userId>` → role (owners are not kept). */
export class MembershipStore {
  private readonly roles = new Map<string, { role: WorkspaceRole; revision: number }>();

  /** The member's role there, or undefined when they are not a member (as far as the bucket says). */
  role(workspaceId: string, userId: string): WorkspaceRole | undefined {
    return this.roles.get(`${workspaceId}.${userId}`)?.role;
  }

  /** Applies a put (role) or a delete (null) of a key, unless a later revision is held already. */
  apply(key: string, revision: number, role: WorkspaceRole | null): void {
    const held = this.roles.get(key);
    if (held && held.revision >= revision) return;
    if (role) this.roles.set(key, { role, revision });
    else this.roles.delete(key);
  }

  get size(): number {
    return this.roles.size;
  }
}

/** The workspace and role a call acts with, or the refusal NOT_A_MEMBER. */
export type WorkspaceResolution = { workspaceId?: string; role?: WorkspaceRole } | 'not-a-member';

/**
 * The workspace a signed-in caller's request names (the header, else `query` for a live stream: an EventSource cannot
 * set headers). Absent, empty or the caller's own user id: their own workspace, nothing to add. Another one: the
 * caller's role there, or 'not-a-member'.
 */
export function resolveWorkspace(
  store: MembershipStore,
  userId: string,
  headers: IncomingHttpHeaders,
  query?: unknown,
): WorkspaceResolution {
  const raw = headers[WORKSPACE_HEADER] ?? query;
  const named = (Array.isArray(raw) ? raw[0] : raw) as unknown;
  if (typeof named !== 'string') return {};
  const workspaceId = named.trim();
  if (!workspaceId || workspaceId === userId) return {};
  const role = store.role(workspaceId, userId);
  return role ? { workspaceId, role } : 'not-a-member';
}

/**
 * The workspace a page last acted in, for what it loads without headers: an <img> or <video> cannot name a workspace,
 * so /media reads this cookie (HttpOnly: set by the gateway as /api calls name their workspace, never by a script).
 */
export const MEDIA_WORKSPACE_COOKIE = 'pc_ws';

/**
 * The workspace a /media request acts in: the header if any, else the cookie the page's last /api call left; never
 * refused (a stale cookie, after a removal, only means the person's own images, and others' answer 404 as ever).
 */
export function mediaWorkspace(
  store: MembershipStore,
  userId: string,
  headers: IncomingHttpHeaders,
): { workspaceId?: string; role?: WorkspaceRole } {
  const resolved = resolveWorkspace(store, userId, headers, readCookie(headers, MEDIA_WORKSPACE_COOKIE));
  return resolved === 'not-a-member' ? {} : resolved;
}

export interface MembershipFeed {
  /** Resolves once the memberships the bucket held at start are in memory (or after 10 s, logged). */
  ready: Promise<void>;
  stop(): Promise<void>;
}

/** A key of the bucket, `<workspaceId>.<userId>` (ids hold no dots). */
function splitKey(key: string): { workspaceId: string; userId: string } | undefined {
  const dot = key.indexOf('.');
  if (dot <= 0 || dot === key.length - 1) return undefined;
  return { workspaceId: key.slice(0, dot), userId: key.slice(dot + 1) };
}

/**
 * Watches the bucket (created if account has not yet: the same settings account uses) into `store` (the kit's
 * followBucket: after a failure the watch resumes after the last revision seen). `onRemoved` hears each delete of a
 * membership, `onRoleChanged` each put that changes the role of a membership held (not a first put, nor a put of the
 * same role: account republishes).
 */
export function startMembershipFeed(opts: {
  nats: Nats;
  store: MembershipStore;
  logger: Logger;
  onRemoved?: (workspaceId: string, userId: string) => void;
  onRoleChanged?: (workspaceId: string, userId: string) => void;
}): MembershipFeed {
  const { nats, store, logger } = opts;
  const follower = followBucket({
    nats,
    bucket: WORKSPACE_MEMBERS_BUCKET,
    open: () => openKeyValue(nats, WORKSPACE_MEMBERS_BUCKET, { ttlMs: 0 }),
    name: 'workspace memberships',
    logger,
    onEntry: (e) => {
      const parts = splitKey(e.key);
      if (!parts) return;
      let role: WorkspaceRole | null = null;
      if (e.operation === 'PUT') {
        const parsed = WorkspaceMembershipValue.safeParse(safeJson(e.string()));
        // a value this gateway cannot read grants nothing (fail closed)
        if (parsed.success) role = parsed.data.role;
        else logger.warn({ key: e.key }, 'membership value not understood; treated as no membership');
      }
      const before = store.role(parts.workspaceId, parts.userId);
      store.apply(e.key, e.revision, role);
      const after = store.role(parts.workspaceId, parts.userId);
      if (!role) opts.onRemoved?.(parts.workspaceId, parts.userId);
      else if (before && after && before !== after) opts.onRoleChanged?.(parts.workspaceId, parts.userId);
    },
  });
  return { ready: follower.ready, stop: follower.stop };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
