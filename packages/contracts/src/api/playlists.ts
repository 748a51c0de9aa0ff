import { z } from 'zod';
import { defineRoutes } from '../route-def';
import { Id, IsoDateTime, OkResponse } from '../validation';
import { AccessibleFile } from './files';

export const PlaylistName = z
  .string({ error: 'validation.playlistNameRequired' })
  .trim()
  .min(1, 'validation.playlistNameRequired')
  .max(100, 'validation.playlistNameTooLong');

export const CreatePlaylistRequest = z.object({
  name: PlaylistName,
  description: z.string().trim().max(500, 'validation.descriptionTooLong').nullable().optional(),
});
export type CreatePlaylistRequest = z.infer<typeof CreatePlaylistRequest>;

export const Playlist = z.object({
  id: z.string(),
  userId: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  itemCount: z.number().int().nonnegative(),
  createdAt: IsoDateTime,
  updatedAt: IsoDateTime,
});
export type Playlist = z.infer<typeof Playlist>;
export const PlaylistList = z.array(Playlist);
export type PlaylistList = z.infer<typeof PlaylistList>;

export const PlaylistIdParams = z.object({ id: Id });
export const PlaylistItemParams = z.object({ id: Id, fileId: Id });

/** How many times a video item plays before the next item: 1 (the default) to PLAYLIST_LOOPS_MAX. */
export const PLAYLIST_LOOPS_MAX = 99;
export const PlaylistLoops = z
  .number({ error: 'validation.playlistLoopsInvalid' })
  .int('validation.playlistLoopsInvalid')
  .min(1, 'validation.playlistLoopsInvalid')
  .max(PLAYLIST_LOOPS_MAX, 'validation.playlistLoopsInvalid');

export const AddPlaylistItemRequest = z.object({
  fileId: Id,
  position: z
    .number({ error: 'validation.positionInvalid' })
    .int('validation.positionInvalid')
    .min(0, 'validation.positionInvalid'),
  /** a video only (another kind answers PLAYLIST_LOOPS_NOT_VIDEO); absent = 1 */
  loops: PlaylistLoops.optional(),
});
export type AddPlaylistItemRequest = z.infer<typeof AddPlaylistItemRequest>;

export const PlaylistItem = z.object({
  id: z.string(),
  playlistId: z.string(),
  fileId: z.string(),
  position: z.number().int().nonnegative(),
  /** times a video item plays in a row before the next item (absent from older servers: 1) */
  loops: z.number().int().min(1).max(PLAYLIST_LOOPS_MAX).optional(),
  createdAt: IsoDateTime,
  /** the file, when the caller may still play it (null: deleted or licence expired) */
  file: AccessibleFile.nullable().optional(),
});
export type PlaylistItem = z.infer<typeof PlaylistItem>;
export const PlaylistItemList = z.array(PlaylistItem);
export type PlaylistItemList = z.infer<typeof PlaylistItemList>;

/**
 * PUT /api/playlists/:id/items: the editor's save as one atomic replace (instead of deleting every item and adding
 * the chosen ones one by one): the files in play order, at least one, each once (a repeat answers 409).
 */
export const SavePlaylistItemsRequest = z.object({
  fileIds: z
    .array(Id, { error: 'validation.playlistFilesRequired' })
    .min(1, 'validation.playlistFilesRequired')
    .max(500, 'validation.invalid'),
  /**
   * loops of the video items by file id (a file not named plays once); a file that is not a video, or one not in
   * `fileIds`, answers PLAYLIST_LOOPS_NOT_VIDEO and nothing is saved
   */
  loops: z.record(Id, PlaylistLoops).optional(),
});
export type SavePlaylistItemsRequest = z.infer<typeof SavePlaylistItemsRequest>;

/** The playlist editor (browser): name plus the chosen files in order, at least one. */
export const PlaylistEditorForm = z.object({
  name: PlaylistName,
  fileIds: z.array(Id).min(1, 'validation.playlistFilesRequired'),
});
export type PlaylistEditorForm = z.infer<typeof PlaylistEditorForm>;

export const playlistsRoutes = defineRoutes([
  {
    id: 'listPlaylists',
    method: 'get',
    path: '/api/playlists',
    service: 'file-conversion',
    auth: 'session',
    action: 'playlists.read',
    summary: "The caller's playlists",
    response: PlaylistList,
  },
  {
    id: 'createPlaylist',
    method: 'post',
    path: '/api/playlists',
    service: 'file-conversion',
    auth: 'session',
    action: 'playlists.write',
    summary: 'Create a playlist',
    body: CreatePlaylistRequest,
    response: Playlist,
  },
  {
    id: 'listPlaylistItems',
    method: 'get',
    path: '/api/playlists/:id/items',
    service: 'file-conversion',
    // 'optional' so that a paired display (a device identity) reaches the service, which lets it read only the
    // playlists assigned to its screen; anonymous callers still get 401 from the service
    auth: 'optional',
    action: 'playlists.read',
    summary: "A playlist's items by position",
    params: PlaylistIdParams,
    response: PlaylistItemList,
  },
  {
    id: 'addPlaylistItem',
    method: 'post',
    path: '/api/playlists/:id/items',
    service: 'file-conversion',
    auth: 'session',
    action: 'playlists.write',
    summary: 'Add a file at a position (a file once per playlist, a position once)',
    params: PlaylistIdParams,
    body: AddPlaylistItemRequest,
    response: PlaylistItem,
  },
  {
    id: 'savePlaylistItems',
    method: 'put',
    path: '/api/playlists/:id/items',
    service: 'file-conversion',
    auth: 'session',
    action: 'playlists.write',
    summary: "Replace a playlist's items with these files in order, in one atomic update",
    params: PlaylistIdParams,
    body: SavePlaylistItemsRequest,
    response: PlaylistItemList,
  },
  {
    id: 'removePlaylistItem',
    method: 'delete',
    path: '/api/playlists/:id/items/:fileId',
    service: 'file-conversion',
    auth: 'session',
    action: 'playlists.write',
    summary: 'Remove a file from a playlist',
    params: PlaylistItemParams,
    response: OkResponse,
  },
  {
    id: 'deletePlaylist',
    method: 'delete',
    path: '/api/playlists/:id',
    service: 'file-conversion',
    auth: 'session',
    action: 'playlists.write',
    summary: 'Delete a playlist and its items',
    params: PlaylistIdParams,
    response: OkResponse,
  },
]);
