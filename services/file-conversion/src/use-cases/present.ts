// How this service's records are answered (the contracts' shapes).
import {
  type AccessibleFile,
  type FilePage,
  type FileSummary,
  type Playlist,
  type PlaylistItem,
  videoPath,
} from '@pagecast/contracts';
import type { FileDoc, PageDoc, PlaylistRecord } from '../data';
import type { PlaylistItemRecord } from '../domain/playlists';
import { mediaPath } from '../domain';

const iso = (d: Date) => new Date(d).toISOString();

export function toFileSummary(f: FileDoc): FileSummary {
  return {
    id: f._id,
    userId: f.userId,
    title: f.title,
    filename: f.filename,
    kind: f.kind,
    media: f.media ?? null,
    sizeBytes: f.sizeBytes,
    ...(f.kind === 'video' ? { videoUrl: playableVideo(f) ? videoPath(f._id) : null } : {}),
    ...(f.kind === 'video' && f.status === 'processing' ? { transcodePercent: f.conversion.percent ?? null } : {}),
    pageCount: f.status === 'processing' ? f.conversion.pagesTotal : f.pageCount,
    pagesReady: f.conversion.pagesDone,
    displayDuration: f.displayDuration,
    displayMode: f.displayMode,
    tags: f.tags,
    isPublished: f.isPublished,
    publishPrice: f.publishPrice,
    status: f.status,
    statusReason: f.disabledReason,
    thumbnailUrl: f.thumbKey ? mediaPath(f.thumbKey) : null,
    createdAt: iso(f.createdAt),
    updatedAt: iso(f.updatedAt),
  };
}

export function toAccessibleFile(
  f: FileDoc,
  access: 'owner' | 'purchased',
  licenceExpiresAt: Date | null,
): AccessibleFile {
  return { ...toFileSummary(f), access, licenceExpiresAt: licenceExpiresAt ? iso(licenceExpiresAt) : null };
}

/** A video whose playable file is stored and whose conversion finished. */
const playableVideo = (f: FileDoc) => f.kind === 'video' && !!f.video && f.status === 'private';

/** A page as the players read it; `file` (the page's file) names the video a video's poster page stands for. */
export function toFilePage(p: PageDoc, file?: FileDoc): FilePage {
  const video =
    file && playableVideo(file) && p.pageNumber === 1
      ? { url: videoPath(file._id), durationMs: file.media?.durationMs ?? 0 }
      : undefined;
  return {
    ...(video ? { video } : {}),
    id: p._id,
    fileId: p.fileId,
    pageNumber: p.pageNumber,
    imagePath: mediaPath(p.imageKey),
    thumbPath: mediaPath(p.thumbKey),
    displayDuration: p.displayDuration,
    width: p.width ?? null,
    height: p.height ?? null,
    createdAt: iso(p.createdAt),
  };
}

export function toPlaylist(p: PlaylistRecord): Playlist {
  return {
    id: p._id,
    userId: p.userId,
    name: p.name,
    description: p.description,
    itemCount: p.items.length,
    createdAt: iso(p.createdAt),
    updatedAt: iso(p.updatedAt),
  };
}

/** An item of a playlist, with its file when the playlist's owner may still play it (null: deleted or licence over). */
export function toPlaylistItem(
  playlistId: string,
  i: PlaylistItemRecord,
  playable: { file: FileDoc; access: 'owner' | 'purchased'; licenceExpiresAt: Date | null } | undefined,
): PlaylistItem {
  return {
    id: `${playlistId}:${i.fileId}`,
    playlistId,
    fileId: i.fileId,
    position: i.position,
    // absent = once (as older servers answered)
    ...(i.loops !== undefined && i.loops > 1 ? { loops: i.loops } : {}),
    createdAt: iso(i.createdAt),
    file: playable ? toAccessibleFile(playable.file, playable.access, playable.licenceExpiresAt) : null,
  };
}
