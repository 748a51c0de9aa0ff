// Playlist calls (spec point 7) plus PUT /api/playlists/:id/items, the editor's atomic save. Items are embedded in
// the playlist document (data/playlists.ts); every change is announced as files.playlist.saved.v1 (or .deleted.v1)
// through the outbox, which the gateway forwards to players watching the playlist.
import { randomUUID } from 'node:crypto';
import {
  AddPlaylistItemRequest,
  CreatePlaylistRequest,
  type Playlist,
  PlaylistIdParams,
  type PlaylistItem,
  PlaylistItemParams,
  SavePlaylistItemsRequest,
  subjects,
} from '@pagecast/contracts';
import { AppError, parseWith, requireIdentity } from '@pagecast/service-kit';
import { Router } from 'express';
import type { FileDoc } from '../data';
import { createPlaylistsRepo, type PlaylistRecord } from '../data/playlists';
import { firstRepeat, inPlayOrder, itemsFromFileIds, placementConflict } from '../domain/playlists';
import type { ServiceContext } from '../context';
import type { PlayerAccess } from './player-identity';
import { toAccessibleFile } from './present';

const iso = (d: Date) => new Date(d).toISOString();

export function playlistsRouter(ctx: ServiceContext, access: PlayerAccess): Router {
  const router = Router();
  const repo = createPlaylistsRepo(ctx.conn);
  const files = ctx.data.files;
  // Built once, before the first call that needs them (the router factory is synchronous).
  const ready = () => repo.ensureIndexes();

  const toPlaylist = (p: PlaylistRecord): Playlist => ({
    id: p._id,
    userId: p.userId,
    name: p.name,
    description: p.description,
    itemCount: p.items.length,
    createdAt: iso(p.createdAt),
    updatedAt: iso(p.updatedAt),
  });

  /** The files among `ids` the caller may play now (own, or bought within the licence), with their licence end. */
  const playable = async (userId: string, ids: string[]) => {
    const docs = ids.length ? await files.listByIds(ids) : [];
    const foreign = docs.some((f) => f.userId !== userId);
    const licences = foreign ? await files.activeLicencesOf(userId) : [];
    const licenceEnd = new Map(licences.map((l) => [l.fileId, l.expiresAt]));
    const out = new Map<string, { file: FileDoc; licenceExpiresAt: Date | null }>();
    for (const f of docs) {
      if (f.userId === userId) out.set(f._id, { file: f, licenceExpiresAt: null });
      else if (licenceEnd.has(f._id)) out.set(f._id, { file: f, licenceExpiresAt: licenceEnd.get(f._id) ?? null });
    }
    return out;
  };

  /** 404 FILE_NOT_FOUND (as for a file that does not exist) unless every id is playable by the caller. */
  const requirePlayable = async (userId: string, ids: string[]) => {
    const ok = await playable(userId, ids);
    const missing = ids.find((id) => !ok.has(id));
    if (missing !== undefined) throw new AppError('FILE_NOT_FOUND', { details: { fileId: missing } });
    return ok;
  };

  /** Items in play order with the file when the caller may still play it (null: deleted or licence over). */
  const presentItems = async (p: PlaylistRecord, userId: string): Promise<PlaylistItem[]> => {
    const items = inPlayOrder(p.items);
    const ok = await playable(
      userId,
      items.map((i) => i.fileId),
    );
    return items.map((i) => {
      const f = ok.get(i.fileId);
      return {
        id: `${p._id}:${i.fileId}`,
        playlistId: p._id,
        fileId: i.fileId,
        position: i.position,
        createdAt: iso(i.createdAt),
        file: f ? toAccessibleFile(f.file, f.file.userId === userId ? 'owner' : 'purchased', f.licenceExpiresAt) : null,
      };
    });
  };

  const notFound = () => new AppError('PLAYLIST_NOT_FOUND');

  router.get('/api/playlists', async (req, res) => {
    const { userId } = requireIdentity(req);
    await ready();
    res.json((await repo.listByOwner(userId)).map(toPlaylist));
  });

  router.post('/api/playlists', async (req, res) => {
    const { userId } = requireIdentity(req);
    const body = parseWith(CreatePlaylistRequest, req.body);
    await ready();
    const now = new Date();
    const p: PlaylistRecord = {
      _id: randomUUID(),
      userId,
      name: body.name,
      description: body.description || null,
      items: [],
      version: 1,
      createdAt: now,
      updatedAt: now,
    };
    await repo.create(p);
    await repo.announceSaved(p, ctx.outbox);
    res.json(toPlaylist(p));
  });

  router.get('/api/playlists/:id/items', async (req, res) => {
    const member = req.device ? undefined : requireIdentity(req).userId;
    const { id } = parseWith(PlaylistIdParams, req.params);
    // a paired display reads the playlists assigned to its screen, as their owner
    const userId = member ?? (await access.userId(req, { playlistId: id }));
    const p = await repo.findOwned(id, userId);
    if (!p) throw notFound();
    res.json(await presentItems(p, userId));
  });

  router.post('/api/playlists/:id/items', async (req, res) => {
    const { userId } = requireIdentity(req);
    const { id } = parseWith(PlaylistIdParams, req.params);
    const body = parseWith(AddPlaylistItemRequest, req.body);
    await ready();
    let added: { file: FileDoc; licenceExpiresAt: Date | null } | undefined;
    const now = new Date();
    const result = await repo.change(id, userId, async (p) => {
      const conflict = placementConflict(p.items, body.fileId, body.position);
      if (conflict) throw new AppError(conflict);
      added = (await requirePlayable(userId, [body.fileId])).get(body.fileId);
      return [...p.items, { fileId: body.fileId, position: body.position, createdAt: now }];
    });
    if (!result || !added) throw notFound();
    await repo.announceSaved(result.playlist, ctx.outbox);
    const item: PlaylistItem = {
      id: `${id}:${body.fileId}`,
      playlistId: id,
      fileId: body.fileId,
      position: body.position,
      createdAt: iso(now),
      file: toAccessibleFile(added.file, added.file.userId === userId ? 'owner' : 'purchased', added.licenceExpiresAt),
    };
    res.json(item);
  });

  // The editor's save: the chosen files in order replace the items in one update (not delete-all-then-add).
  router.put('/api/playlists/:id/items', async (req, res) => {
    const { userId } = requireIdentity(req);
    const { id } = parseWith(PlaylistIdParams, req.params);
    const { fileIds } = parseWith(SavePlaylistItemsRequest, req.body);
    const repeat = firstRepeat(fileIds);
    if (repeat !== undefined) throw new AppError('PLAYLIST_ITEM_EXISTS', { details: { fileId: repeat } });
    await ready();
    const result = await repo.change(id, userId, async (p) => {
      await requirePlayable(userId, fileIds);
      return itemsFromFileIds(fileIds, p.items, new Date());
    });
    if (!result) throw notFound();
    await repo.announceSaved(result.playlist, ctx.outbox);
    res.json(await presentItems(result.playlist, userId));
  });

  router.delete('/api/playlists/:id/items/:fileId', async (req, res) => {
    const { userId } = requireIdentity(req);
    const { id, fileId } = parseWith(PlaylistItemParams, req.params);
    await ready();
    const result = await repo.change(id, userId, (p) =>
      p.items.some((i) => i.fileId === fileId) ? p.items.filter((i) => i.fileId !== fileId) : undefined,
    );
    if (!result) throw notFound();
    // Removing a file that is not there changes nothing: no new version, no event.
    if (result.changed) await repo.announceSaved(result.playlist, ctx.outbox);
    res.json({ ok: true });
  });

  router.delete('/api/playlists/:id', async (req, res) => {
    const { userId } = requireIdentity(req);
    const { id } = parseWith(PlaylistIdParams, req.params);
    await ready();
    if (!(await repo.deleteOwned(id, userId))) throw notFound();
    await ctx.outbox.add(subjects.playlistDeleted, { playlistId: id, ownerId: userId, deletedAt: iso(new Date()) });
    res.json({ ok: true });
  });

  return router;
}
