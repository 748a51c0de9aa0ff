import { randomUUID } from 'node:crypto';
import type { CreatePlaylistRequest, Playlist } from '@pagecast/contracts';
import type { AuditActor } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import type { PlaylistRecord } from '../data';
import { auditPlaylistChange } from '../events/audit';
import { toPlaylist } from './present';

/** The member creates an empty playlist; it is announced (files.playlist.saved.v1). */
export async function createPlaylist(
  ctx: ServiceContext,
  userId: string,
  input: CreatePlaylistRequest,
  actor: AuditActor,
): Promise<Playlist> {
  const now = ctx.clock.now();
  const p: PlaylistRecord = {
    _id: randomUUID(),
    userId,
    name: input.name,
    description: input.description || null,
    items: [],
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
  await ctx.data.playlists.create(p);
  await auditPlaylistChange(ctx, actor, 'playlist.created', userId, p._id, null, p);
  await ctx.data.playlists.announceSaved(p, ctx.outbox);
  return toPlaylist(p);
}
