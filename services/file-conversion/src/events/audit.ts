import type { AuditAction } from '@pagecast/contracts';
import { type AuditActor, type Outbox, publishAudit } from '@pagecast/service-kit';
import type { FileDoc } from '../data';
import { inPlayOrder, type PlaylistRecord } from '../domain/playlists';
import { fileUpdatedData } from './publish';

/** A file as the audit log keeps it: its settings and state (the snapshot other services get), with its version. */
export const fileAuditSnapshot = (f: FileDoc) => {
  const { ownerId: _, ...rest } = fileUpdatedData(f);
  return { ...rest, kind: f.kind };
};

/** A playlist as the audit log keeps it: name, description and the items in play order, with its version. */
export const playlistAuditSnapshot = (p: PlaylistRecord) => ({
  playlistId: p._id,
  name: p.name,
  description: p.description,
  items: inPlayOrder(p.items).map((i) => ({ fileId: i.fileId, ...(i.loops ? { loops: i.loops } : {}) })),
  version: p.version,
  updatedAt: new Date(p.updatedAt).toISOString(),
});

/** Records a change of a file in its workspace's audit log (a workspace's id is its owner's user id). */
export function auditFileChange(
  ctx: { outbox: Outbox; clock: { now(): Date } },
  actor: AuditActor,
  action: AuditAction,
  workspaceId: string,
  fileId: string,
  before: FileDoc | null,
  after: FileDoc | null,
  /** more of the file's state this change concerns (its publish settings' stated copyright), before and after */
  extra?: { before: Record<string, unknown>; after: Record<string, unknown> },
) {
  return publishAudit(
    ctx.outbox,
    'files',
    {
      workspaceId,
      actor,
      action,
      object: { type: 'file', id: fileId },
      before: before && { ...fileAuditSnapshot(before), ...extra?.before },
      after: after && { ...fileAuditSnapshot(after), ...extra?.after },
    },
    ctx.clock.now(),
  );
}

/** Records a change of a playlist in its workspace's audit log. */
export function auditPlaylistChange(
  ctx: { outbox: Outbox; clock: { now(): Date } },
  actor: AuditActor,
  action: AuditAction,
  workspaceId: string,
  playlistId: string,
  before: PlaylistRecord | null,
  after: PlaylistRecord | null,
) {
  return publishAudit(
    ctx.outbox,
    'files',
    {
      workspaceId,
      actor,
      action,
      object: { type: 'playlist', id: playlistId },
      before: before && playlistAuditSnapshot(before),
      after: after && playlistAuditSnapshot(after),
    },
    ctx.clock.now(),
  );
}
