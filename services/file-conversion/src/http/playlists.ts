// Playlist calls (spec point 7) plus PUT /api/playlists/:id/items, the editor's atomic save. Items are embedded in
// the playlist document (data/playlists.ts); every change is announced as files.playlist.saved.v1 (or .deleted.v1)
// through the outbox, which the gateway forwards to players watching the playlist.
import {
  AddPlaylistItemRequest,
  CreatePlaylistRequest,
  PlaylistIdParams,
  PlaylistItemParams,
  SavePlaylistItemsRequest,
} from '@pagecast/contracts';
import { auditActor, parseWith, requireActor } from '@pagecast/service-kit';
import { Router } from 'express';
import type { ServiceContext } from '../context';
import { addPlaylistItem } from '../use-cases/add-playlist-item';
import { createPlaylist } from '../use-cases/create-playlist';
import { deletePlaylist } from '../use-cases/delete-playlist';
import { devicePlaylistItems } from '../use-cases/device-reads';
import { listPlaylists } from '../use-cases/list-playlists';
import { playlistItems } from '../use-cases/playlist-items';
import { removePlaylistItem } from '../use-cases/remove-playlist-item';
import { savePlaylistItems } from '../use-cases/save-playlist-items';
import { callerOf } from './caller';

export function playlistsRouter(ctx: ServiceContext): Router {
  const router = Router();

  router.get('/api/playlists', async (req, res) => {
    res.json(await listPlaylists(ctx, requireActor(req, 'playlists.read').workspaceId));
  });

  router.post('/api/playlists', async (req, res) => {
    const { workspaceId } = requireActor(req, 'playlists.write');
    res.json(await createPlaylist(ctx, workspaceId, parseWith(CreatePlaylistRequest, req.body), auditActor(req)));
  });

  // a paired display reads the playlists its screen plays, as their owner
  router.get('/api/playlists/:id/items', async (req, res) => {
    const caller = callerOf(req, 'playlists.read');
    const { id } = parseWith(PlaylistIdParams, req.params);
    // a display's read comes from memory (use-cases/device-reads.ts): the same answer, without the database
    res.json(
      caller.kind === 'device' ? await devicePlaylistItems(ctx, caller, id) : await playlistItems(ctx, caller, id),
    );
  });

  router.post('/api/playlists/:id/items', async (req, res) => {
    const { workspaceId } = requireActor(req, 'playlists.write');
    const { id } = parseWith(PlaylistIdParams, req.params);
    res.json(await addPlaylistItem(ctx, workspaceId, id, parseWith(AddPlaylistItemRequest, req.body), auditActor(req)));
  });

  // The editor's save: the chosen files in order replace the items in one update (not delete-all-then-add).
  router.put('/api/playlists/:id/items', async (req, res) => {
    const { workspaceId } = requireActor(req, 'playlists.write');
    const { id } = parseWith(PlaylistIdParams, req.params);
    const { fileIds, loops } = parseWith(SavePlaylistItemsRequest, req.body);
    res.json(await savePlaylistItems(ctx, workspaceId, id, fileIds, loops, auditActor(req)));
  });

  router.delete('/api/playlists/:id/items/:fileId', async (req, res) => {
    const { workspaceId } = requireActor(req, 'playlists.write');
    const { id, fileId } = parseWith(PlaylistItemParams, req.params);
    await removePlaylistItem(ctx, workspaceId, id, fileId, auditActor(req));
    res.json({ ok: true });
  });

  router.delete('/api/playlists/:id', async (req, res) => {
    const { workspaceId } = requireActor(req, 'playlists.write');
    const { id } = parseWith(PlaylistIdParams, req.params);
    await deletePlaylist(ctx, workspaceId, id, auditActor(req));
    res.json({ ok: true });
  });

  return router;
}
