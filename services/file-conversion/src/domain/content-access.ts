// Who may see a file's content, decided in one place. The file, pages, playlist, image, internal image-access and
// preview routes all ask `contentAccess` with what their use case read (the files, the reader's licences, what the
// reader's screen plays) and the time; it answers whether, why, and how long that answer may be kept.

/** How long an owner's yes may be kept (the gateway drops it early on the owner's file and playlist events). */
export const OWNER_KEEP_MS = 60_000;
/** How long a licence's yes may be kept, and never past the licence's end: an ended licence stops within seconds. */
export const LICENCE_KEEP_MS = 3_000;
/** How long a refusal may be kept (a purchase or an assignment to a screen may follow). */
export const REFUSAL_KEEP_MS = 2_000;
/** How long a preview's yes may be kept (the browser's max-age on preview images). */
export const PREVIEW_KEEP_MS = 300_000;

/**
 * What a paired screen plays, as screens announced it: the playlists and files assigned to it directly or by a
 * schedule (screens lists every day part's, since the display picks the part on its own clock), and the items of
 * those playlists.
 */
export interface ScreenView {
  ownerId: string;
  playlistIds: ReadonlySet<string>;
  fileIds: ReadonlySet<string>;
}

/** Who reads. */
export type Reader =
  | { kind: 'member'; userId: string }
  /** a paired display: reads as its screen's owner, only what its screen plays (`screen` null: unknown or unpaired) */
  | { kind: 'device'; ownerId: string; screen: ScreenView | null }
  /** a member looking at a file on sale before buying it: small, watermarked previews only */
  | { kind: 'preview'; userId: string };

/** A file whose content is asked for (for an image: each file that shows it). */
export interface ContentFile {
  id: string;
  ownerId: string;
  /** converted, published and priced (isOnSale); only such a file has previews */
  onSale?: boolean;
}

/** One of the reader's licences (a display's: its screen owner's), as recorded; an ended one gives nothing. */
export interface ContentLicence {
  fileId: string;
  expiresAt: Date;
}

export interface ContentRequest {
  reader: Reader;
  /** the file, or every file showing the image; none: it does not exist (deleted, or never was) */
  files: readonly ContentFile[];
  licences: readonly ContentLicence[];
  /** 'play' (player, playlists, images) lets a licence holder in; 'library' (a file's own page) only its owner */
  use: 'play' | 'library';
  /** epoch ms */
  now: number;
}

export type ContentDecision =
  | {
      access: 'owner' | 'licence' | 'preview';
      /** the file that grants it */
      fileId: string;
      /** the licence's end, for access 'licence' */
      licenceExpiresAt: Date | null;
      keepMs: number;
    }
  | {
      access: null;
      /** 'screen': the display's screen is unknown, unpaired or another owner's; 'content': anything else */
      refusal: 'screen' | 'content';
      keepMs: number;
    };

const refused = (refusal: 'screen' | 'content'): ContentDecision => ({
  access: null,
  refusal,
  keepMs: REFUSAL_KEEP_MS,
});

/** The member whose files and licences count: the member, or a display's screen owner. */
export function actingUser(reader: Reader): string {
  return reader.kind === 'device' ? reader.ownerId : reader.userId;
}

/**
 * May the reader see this content, and for how long may the answer be kept?
 * - preview: any member, while the file is on sale; never more than its previews.
 * - owner: always (kept 60 s).
 * - licence holder: for playing only, while a licence lasts (kept 3 s at most, never past its end).
 * - a paired display: as its screen's owner, only a file its screen plays (directly, through a playlist or a
 *   schedule); for an image, when one of the files showing it is.
 * - anyone else, or a file that does not exist: refused (kept 2 s), the same answer as for a missing file.
 */
export function contentAccess({ reader, files, licences, use, now }: ContentRequest): ContentDecision {
  if (reader.kind === 'preview') {
    const onSale = files.find((f) => f.onSale);
    return onSale
      ? { access: 'preview', fileId: onSale.id, licenceExpiresAt: null, keepMs: PREVIEW_KEEP_MS }
      : refused('content');
  }
  if (reader.kind === 'device') {
    const { screen } = reader;
    if (!screen || screen.ownerId !== reader.ownerId) return refused('screen');
    if (!files.some((f) => screen.fileIds.has(f.id))) return refused('content');
  }
  const userId = actingUser(reader);
  const own = files.find((f) => f.ownerId === userId);
  if (own) return { access: 'owner', fileId: own.id, licenceExpiresAt: null, keepMs: OWNER_KEEP_MS };
  if (use !== 'play') return refused('content');
  const shown = new Set(files.map((f) => f.id));
  let best: ContentLicence | undefined;
  for (const l of licences) {
    if (!shown.has(l.fileId) || l.expiresAt.getTime() <= now) continue;
    if (!best || l.expiresAt > best.expiresAt) best = l;
  }
  if (!best) return refused('content');
  return {
    access: 'licence',
    fileId: best.fileId,
    licenceExpiresAt: best.expiresAt,
    keepMs: Math.min(LICENCE_KEEP_MS, best.expiresAt.getTime() - now),
  };
}

/**
 * May the reader read this playlist (null: none with that id)? Its owner; a paired display, as its screen's owner,
 * only a playlist its screen plays (directly or through a schedule). The items are then decided as the owner's.
 */
export function playlistAccess(
  reader: Exclude<Reader, { kind: 'preview' }>,
  playlist: { id: string; ownerId: string } | null,
): { allowed: true } | { allowed: false; refusal: 'screen' | 'content' } {
  if (reader.kind === 'device') {
    const { screen } = reader;
    if (!screen || screen.ownerId !== reader.ownerId) return { allowed: false, refusal: 'screen' };
    if (!playlist || !screen.playlistIds.has(playlist.id)) return { allowed: false, refusal: 'content' };
  }
  if (!playlist || playlist.ownerId !== actingUser(reader)) return { allowed: false, refusal: 'content' };
  return { allowed: true };
}
