// What each paired screen may read, as the content-access rule needs it (domain/content-access.ts), and
// the playlists and files a display reads, held in memory on every instance (docs/scale.md): built from
// what was read by `_id` (batched) and kept current by the events that change it, heard by every instance at once
// (service-kit followEvents; events/index.ts starts it). Nothing here changes an answer, only where it comes from.
//
// - Screens: the screens service's events (screens.screen.changed / fleet.changed / screen.revoked) applied by the
//   reducers of the read model (screen-content.ts), read once for both of their readers (screenEventRoutes). That
//   read model is written by ONE durable consumer, which may lag the plain subscription: the events heard in the
//   last DUPLICATE_WINDOW_MS are kept per screen and applied again on top of every database read, so
//   read-then-events is right in any order (docs/read-models.md, rule 1).
// - Playlists and files are this service's own records: their events are published after the write (the outbox), so
//   an event forgets the entry and the next read takes it again by `_id`. This instance hears its own event before
//   the outbox's publish is acknowledged (the message reaches this connection's subscription first), so before the
//   call that made the change answers (rule 2). A read that overlapped an event of its key is not kept.
// - A gap (the connection came back: events may have been missed) drops everything held; every entry is read again
//   at most BACKSTOP_MS after it was read, whatever happened.
import { DUPLICATE_WINDOW_MS, subjects } from '@pagecast/contracts';
import { createMemoryView, type EventRoutes, eventRoutes } from '@pagecast/service-kit';
import type mongoose from 'mongoose';
import type { ScreenView } from '../domain';
import type { FileDoc, Models } from './models';
import type { PlaylistRecord } from './playlists';
import { changedTo, grantedTo, revokedTo, type ScreenContent, type ScreenContentState } from './screen-content';

/**
 * How long an entry is trusted without an event: 10 minutes. Events keep every entry current and a gap drops them
 * all, so this only bounds what a message lost without a gap (a bug, a publish nobody heard) could leave wrong; short
 * enough that such a fault heals within a coffee break, long enough that a fleet of 10,000 screens re-reads its
 * records about 17 times a minute, not per request.
 */
export const BACKSTOP_MS = 10 * 60_000;
/**
 * At most this many of each kind (screens, playlists, files): 10,000 screens and what they play fit twice. Measured
 * (heap after gc, 10,000 screens and 5,000 of the others read through this module): a screen with two playlists and
 * a file about 0.45 KiB with the event it was heard from (0.7 KiB while that event is in the 2-minute window), a
 * playlist of 10 items about 2.7 KiB, a converted file's document about 0.9 KiB: about 80 MiB with all three full.
 */
export const VIEW_ENTRIES_MAX = 20_000;
/** Screens whose recent events are kept (far above what 2 minutes see: screens' events are rare). */
const RECENT_SCREENS_MAX = 100_000;

/** What one of the screens' events says of the screens it names. */
export type ScreenEvent =
  | { kind: 'changed'; ownerId: string; playlistIds: string[]; fileIds: string[]; changedAt: Date }
  | { kind: 'granted'; ownerId: string; playlistIds: string[]; fileIds: string[]; changedAt: Date }
  | { kind: 'revoked'; ownerId: string; at: Date };

/**
 * The screens service's three events that change what a screen may read, each as one ScreenEvent on the screens it
 * names: read once here for both of their readers, the durable consumer that writes screen_content
 * (events/index.ts) and every instance's memory (below).
 */
export function screenEventRoutes(apply: (screenIds: string[], e: ScreenEvent) => unknown): EventRoutes {
  return eventRoutes()
    .on(subjects.screenChanged, (d) =>
      apply([d.screenId], {
        kind: 'changed',
        ownerId: d.ownerId,
        playlistIds: d.playlistIds,
        fileIds: d.fileIds,
        changedAt: new Date(d.changedAt),
      }),
    )
    .on(subjects.fleetChanged, (d) =>
      apply(d.screenIds, { kind: 'granted', ownerId: d.ownerId, ...d.content, changedAt: new Date(d.changedAt) }),
    )
    .on(subjects.screenRevoked, (d) =>
      apply([d.screenId], { kind: 'revoked', ownerId: d.ownerId, at: new Date(d.revokedAt) }),
    );
}

/**
 * One event on a screen's record. `replayed`: applied again on top of a database read, which may already hold it or
 * later ones; a fleet grant older than the record's own change is then one the change already superseded (in the
 * stream's order the grant came first, and the change replaced the record whole).
 */
function reduce(state: ScreenContentState | null, e: ScreenEvent, replayed: boolean): ScreenContentState | null {
  if (e.kind === 'changed') return changedTo(state, e);
  if (e.kind === 'revoked') return revokedTo(e.ownerId, e.at);
  if (replayed && state && state.changedAt > e.changedAt) return state;
  return grantedTo(state, e.ownerId, e);
}

export function createScreenViews(conn: mongoose.Connection, screenContent: ScreenContent, models: Models) {
  /** The screen's record from the database by `_id` (the memory applies the events heard since on top). */
  const readScreen = async (screenId: string): Promise<ScreenContentState | null> => {
    const record = await screenContent.record(screenId);
    return record
      ? {
          ownerId: record.ownerId,
          playlistIds: record.playlistIds,
          fileIds: record.fileIds,
          changedAt: new Date(record.changedAt),
          revoked: record.revoked,
        }
      : null;
  };
  const screens = createMemoryView<ScreenContentState>({
    source: readScreen,
    max: VIEW_ENTRIES_MAX,
    backstopMs: BACKSTOP_MS,
    // the events heard in the last DUPLICATE_WINDOW_MS per screen, applied again on top of every database read
    replay: { windowMs: DUPLICATE_WINDOW_MS, maxIds: RECENT_SCREENS_MAX },
  });
  // Many displays boot at once and ask for the same few records: read together, one query per round trip.
  // Playlists and files are forgotten on their events; a read that an event of its key (or a gap) overlapped is
  // answered but not kept (it may hold the record from before the change).
  const playlists = createMemoryView<PlaylistRecord>({
    source: conn.collection<PlaylistRecord>('playlists'),
    max: VIEW_ENTRIES_MAX,
    backstopMs: BACKSTOP_MS,
    keep: (p) => p !== null,
  });
  // A file still converting changes at every page without an event each time: read afresh until it is done.
  const files = createMemoryView<FileDoc>({
    source: models.files.collection,
    max: VIEW_ENTRIES_MAX,
    backstopMs: BACKSTOP_MS,
    keep: (f) => f !== null && f.status !== 'processing' && Boolean(f.conversion?.finishedAt),
  });

  const onScreens = (screenIds: string[], e: ScreenEvent) => {
    if (e.kind === 'granted' && e.playlistIds.length + e.fileIds.length === 0) return;
    for (const screenId of screenIds) screens.hear(screenId, (state, replayed) => reduce(state, e, replayed));
  };
  const playlist = (id: string, fresh = false) => playlists.get(id, fresh);

  /** The events this memory follows (events/index.ts subscribes to them on every instance). */
  const routes = screenEventRoutes(onScreens)
    .on([subjects.playlistSaved, subjects.playlistDeleted], (d) => playlists.forget(d.playlistId))
    .on(
      [
        subjects.fileUploaded,
        subjects.fileUpdated,
        subjects.filePublished,
        subjects.fileUnpublished,
        subjects.fileDeleted,
        subjects.pageReady,
      ],
      (d) => files.forget(d.fileId),
    );

  return {
    /**
     * What the screen plays (null: unknown or unpaired), from memory unless `fresh` (then read again by `_id`), and
     * whether it came from memory.
     */
    async get(screenId: string, fresh: boolean): Promise<{ view: ScreenView | null; remembered: boolean }> {
      const held = fresh ? undefined : screens.held(screenId);
      const state = held !== undefined ? held : await screens.get(screenId, true);
      const remembered = held !== undefined;
      if (!state || state.revoked) return { view: null, remembered };
      const fileIds = new Set(state.fileIds);
      const lists = await Promise.all(state.playlistIds.map((id) => playlist(id, fresh)));
      for (const list of lists) {
        if (list && list.userId === state.ownerId) for (const item of list.items) fileIds.add(item.fileId);
      }
      return { view: { ownerId: state.ownerId, playlistIds: new Set(state.playlistIds), fileIds }, remembered };
    },
    /** A playlist by `_id` (null: none), from memory when held. */
    playlist,
    /** A file by `_id` (null: none), from memory when held (a converted file). */
    file: (id: string) => files.get(id),
    /** The events this memory follows, each applied to what this instance holds. */
    routes,
    /**
     * This instance deleted the file: forgotten at once, before the deletion's event (which reaches the other
     * instances, and this one again, once the outbox publishes it).
     */
    forgetFile(fileId: string): void {
      files.forget(fileId);
    },
    /** The connection came back after a loss: whatever was missed meanwhile, nothing held is trusted. */
    dropAll(): void {
      screens.clear();
      playlists.clear();
      files.clear();
    },
    /** How many entries are held (figures and tests). */
    get size() {
      return { screens: screens.size, playlists: playlists.size, files: files.size };
    },
  };
}
export type ScreenViews = ReturnType<typeof createScreenViews>;
