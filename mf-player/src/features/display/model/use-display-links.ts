// What the paired display tells the server and hears from it, each trying again after a failure (retry.ts): its
// heartbeat with what it shows, its proof of play, and the live stream of changes to what it plays.
import {
  contentOfInputs,
  type DeviceScreen,
  deviceInputs,
  type DisplayPublicKey,
  type HeartbeatRequest,
  PLAY_FLUSH_SECONDS,
  SCREEN_HEARTBEAT_SECONDS,
  type ShownReport,
} from '@pagecast/contracts';
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { knownEtag } from '../../../lib/conditional-fetch';
import { liveUrl } from '../../../lib/events-since';
import { deviceScreenPath } from '../api/get-device-screen';
import { registerKey } from '../api/register-key';
import { sendHeartbeat } from '../api/send-heartbeat';
import { sendPlays } from '../api/send-plays';
import { createDeviceLink, type DeviceLink, deviceSocketUrl, viaLink } from './device-link';
import { displayKeyStore, platformSubtle } from './display-keys';
import type { createPlayLog } from './play-log';
import { createPlaySender } from './play-sender';
import { retryDelay, type WaitingBoard } from './retry';
import { beatWithReport, createShownReporter, settled } from './shown-report';
import { isUnauthorized } from './use-display-session';

/** The live stream's events that change what the display plays (its content is read again). */
const CONTENT_EVENTS = [
  'files.playlist.saved.v1',
  'files.file.updated.v1',
  'files.file.deleted.v1',
  'files.page.ready.v1',
];

/**
 * The display's socket (device-link.ts), one per paired screen: a pushed manifest version other than the one held
 * reads the manifest again (or takes the text pushed with it), a watched change reloads the content, a resumption
 * after a drop reads the content again (what changed meanwhile reached no socket; the manifest only when the version
 * the socket gives is not the one its hello named), a revocation unpairs; a socket still opening, or dropped, is
 * waited for on the page as the live connection.
 */
export function useDeviceLink(opts: {
  refresh: () => Promise<void>;
  /** the manifest pushed with its version (its text): taken as the read's answer, nothing read */
  given: (version: string, manifest: string) => boolean;
  reload: () => void;
  unpaired: () => void;
  board: WaitingBoard;
}): DeviceLink {
  const { board } = opts;
  const latest = useRef(opts);
  latest.current = opts;
  const link = useMemo(
    () =>
      createDeviceLink({
        socket: typeof WebSocket === 'function' ? (url) => new WebSocket(url) : null,
        url: deviceSocketUrl(window.location),
        heldVersion: () => knownEtag(deviceScreenPath),
        onManifest: (version, manifest) => {
          if (manifest === undefined || !latest.current.given(version, manifest)) void latest.current.refresh();
        },
        onEvent: (event) => {
          if (CONTENT_EVENTS.includes(event.type)) latest.current.reload();
        },
        // the content read again (a playlist's or file's change meanwhile reached no socket); the manifest only if the
        // version the resumed socket gives is not the one held (its hello named it: onManifest above)
        onResumed: () => latest.current.reload(),
        onRevoked: () => latest.current.unpaired(),
        onWaiting: (at) => (at === null ? board.done('live') : board.wait('live', at)),
      }),
    [board],
  );
  useEffect(() => {
    link.start();
    return () => link.stop();
  }, [link]);
  return link;
}

const useLinkState = (link: DeviceLink) => useSyncExternalStore(link.subscribe, () => link.state);

/** Reported with each heartbeat; the Screens page shows it. */
export const DISPLAY_APP_VERSION = '1.0.0';
const FLUSH_MS = PLAY_FLUSH_SECONDS * 1000;

/**
 * Heartbeat, with what is shown (a refused report is dropped, the beat still counts); a 401 means unpaired. Regular
 * beats (each carries what is shown, so a change report that failed is told by the next); a beat that failed is tried
 * again sooner, backing off, never later than the regular period. A change of the picture is told at once (at most
 * every SHOWN_REPORT_MIN_SECONDS), a page once its image drew or failed: the owner's pages show what the display shows.
 */
export function useHeartbeat(opts: {
  shows: ShownReport;
  closed: boolean;
  nowPlaying: { fileId: string | null; page: number | null } | null;
  heartbeatSeconds: number | undefined;
  unpaired: () => void;
  board: WaitingBoard;
  link: DeviceLink;
  /** fills in what changes without a render (a video's current second) when a report is sent */
  stamp?: (shows: ShownReport) => ShownReport;
}) {
  const { unpaired, board, heartbeatSeconds, link } = opts;
  const stamp = useRef(opts.stamp);
  stamp.current = opts.stamp;
  // over the socket while it is live, else POST /api/screens/device/heartbeat
  const send = useMemo(() => viaLink(link, 'heartbeat', sendHeartbeat), [link]);
  const showsRef = useRef(opts.shows);
  showsRef.current = opts.shows;
  const closedRef = useRef(opts.closed);
  closedRef.current = opts.closed;
  const nowPlaying = useRef(opts.nowPlaying);
  nowPlaying.current = opts.nowPlaying;
  const refusedReport = useRef<string | null>(null);
  // Whether it reached the server.
  const beat = useCallback(
    (report: ShownReport): Promise<boolean> => {
      const key = JSON.stringify(report);
      const body: HeartbeatRequest = {
        appVersion: DISPLAY_APP_VERSION,
        screenSize: { width: window.screen.width, height: window.screen.height },
        nowPlaying: closedRef.current ? null : nowPlaying.current,
        closed: closedRef.current,
        // its clock: the server measures how far ahead it is, which bounds how far ahead its play records may end
        sentAt: new Date().toISOString(),
        ...(refusedReport.current === key ? {} : { shows: stamp.current ? stamp.current(report) : report }),
      };
      return beatWithReport(send, body)
        .then(({ reportRefused }) => {
          if (reportRefused) refusedReport.current = key;
          return true;
        })
        .catch((err) => {
          if (isUnauthorized(err)) unpaired();
          return false;
        });
    },
    [unpaired, send],
  );
  const reporter = useMemo(() => createShownReporter((report) => void beat(report)), [beat]);
  useEffect(() => () => reporter.stop(), [reporter]);
  useEffect(() => {
    const every = (heartbeatSeconds || SCREEN_HEARTBEAT_SECONDS) * 1000;
    let stopped = false;
    let failures = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const regular = async () => {
      reporter.told(showsRef.current);
      const reached = await beat(showsRef.current);
      if (stopped) return;
      if (reached) {
        failures = 0;
        board.done('heartbeat');
        timer = setTimeout(regular, every);
        return;
      }
      failures += 1;
      const ms = Math.min(every, retryDelay(failures));
      board.wait('heartbeat', Date.now() + ms);
      timer = setTimeout(regular, ms);
    };
    void regular();
    return () => {
      stopped = true;
      clearTimeout(timer);
      board.done('heartbeat');
    };
  }, [heartbeatSeconds, beat, reporter, board]);
  const showsKey = JSON.stringify(opts.shows);
  // biome-ignore lint/correctness/useExhaustiveDependencies: showsKey stands for shows
  useEffect(() => {
    if (settled(showsRef.current)) reporter.change(showsRef.current);
  }, [showsKey, reporter]);
}

/**
 * Proof of play: sent in signed batches (play-sender); kept while offline; a refused batch is dropped (it would be
 * refused again), and so is every record of an answered batch: counted, already counted, or refused one by one
 * (refusedByReason). A batch that got no answer is sent again, backing off, and at once when the browser is back online.
 */
export function usePlayFlush(
  log: ReturnType<typeof createPlayLog>,
  screenId: string,
  unpaired: () => void,
  board: WaitingBoard,
  link: DeviceLink,
) {
  const sender = useMemo(() => {
    // the socket's `key` frame carries the HTTP route's body, { publicKey }
    const keyVia = viaLink(link, 'key', (body: { publicKey: DisplayPublicKey }) => registerKey(body.publicKey));
    return createPlaySender({
      log,
      storage: window.localStorage,
      keys: displayKeyStore(),
      subtle: platformSubtle(),
      screenId,
      // over the socket while it is live (a batch whose reply was lost is sent again: counted once), else HTTP
      send: viaLink(link, 'plays', sendPlays),
      registerKey: (publicKey) => keyVia({ publicKey }),
    });
  }, [log, screenId, link]);
  useEffect(() => {
    let sending = false;
    let stopped = false;
    let failures = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = async () => {
      if (sending) return;
      sending = true;
      clearTimeout(timer);
      let outcome: Awaited<ReturnType<typeof sender.flush>>;
      try {
        outcome = await sender.flush();
      } catch {
        outcome = 'offline';
      } finally {
        sending = false;
      }
      if (outcome === 'unpaired') return unpaired();
      if (stopped) return;
      if (outcome === 'offline') {
        failures += 1;
        const ms = retryDelay(failures);
        board.wait('plays', Date.now() + ms);
        timer = setTimeout(flush, ms);
      } else {
        failures = 0;
        board.done('plays');
        timer = setTimeout(flush, FLUSH_MS);
      }
    };
    timer = setTimeout(flush, FLUSH_MS);
    window.addEventListener('online', flush);
    return () => {
      stopped = true;
      clearTimeout(timer);
      window.removeEventListener('online', flush);
      board.done('plays');
    };
  }, [sender, unpaired, board]);
}

/**
 * Live: the screen's own changes, and the playlists and files it plays (its own assignment's, its groups' and running
 * takeovers': what the resolver may pick); a closed stream may mean revoked. A stream that fails is closed and opened
 * again by the display, backing off, rather than by the browser's fixed reconnect (which also stops for good at a
 * refusal, a 429 or a 503); the reopened stream names the last event it had, so the gateway tells it to resync.
 * `reload`: what it plays changed.
 */
export function useLiveUpdates(opts: {
  screen: DeviceScreen;
  fileIds: readonly string[];
  refresh: () => Promise<void>;
  reload: () => void;
  board: WaitingBoard;
  link: DeviceLink;
}) {
  const { screen, refresh, reload, board, link } = opts;
  // the socket carries the changes while it is live or opening: the live stream is for a display fallen back to HTTP
  const overHttp = useLinkState(link) === 'http';
  const files = [...new Set(opts.fileIds)].slice(0, 40);
  const playlists = useMemo(() => contentOfInputs(deviceInputs(screen)).playlistIds.slice(0, 10), [screen]);
  const query = [
    ...playlists.map((id) => `playlist=${encodeURIComponent(id)}`),
    ...files.map((id) => `file=${encodeURIComponent(id)}`),
  ].join('&');
  const [liveTry, setLiveTry] = useState(0);
  const liveFailures = useRef(0);
  const lastEventId = useRef('');
  // biome-ignore lint/correctness/useExhaustiveDependencies: query stands for playlists and files
  useEffect(() => {
    link.watch(playlists, files);
  }, [link, query]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: liveTry opens the stream again
  useEffect(() => {
    if (!overHttp) return;
    // since: a screen that starts (or swaps what it watches) long after the last change need not refetch it all
    const again = lastEventId.current ? `lastEventId=${encodeURIComponent(lastEventId.current)}` : '';
    const params = [query, again].filter(Boolean).join('&');
    const source = new EventSource(liveUrl(`/api/events${params ? `?${params}` : ''}`));
    let timer: ReturnType<typeof setTimeout> | undefined;
    source.addEventListener('ready', (e) => {
      liveFailures.current = 0;
      board.done('live');
      if ((e as MessageEvent).lastEventId) lastEventId.current = (e as MessageEvent).lastEventId;
    });
    source.addEventListener('screens.screen.changed.v1', () => void refresh());
    // Back after a cut (or told to read everything again): what the screen is given may have changed meanwhile, and
    // proof of play counts only what it was given (a display still playing the old content is refused after a minute).
    source.addEventListener('resync', () => void refresh());
    const online = () => void refresh();
    window.addEventListener('online', online);
    for (const type of [
      'files.playlist.saved.v1',
      'files.file.updated.v1',
      'files.file.deleted.v1',
      'files.page.ready.v1',
      'resync',
    ])
      source.addEventListener(type, reload);
    // A cut or a refusal (revoked?): ask the server what happened (a 401 unpairs), and open the stream again later.
    source.onerror = () => {
      if (timer !== undefined) return;
      source.close();
      // once per run of failures: a read that is still trying must not start over at each attempt
      if (liveFailures.current === 0) void refresh();
      liveFailures.current += 1;
      const ms = retryDelay(liveFailures.current);
      board.wait('live', Date.now() + ms);
      timer = setTimeout(() => setLiveTry((n) => n + 1), ms);
    };
    return () => {
      source.close();
      clearTimeout(timer);
      window.removeEventListener('online', online);
    };
  }, [query, refresh, liveTry, board, reload, overHttp]);
  useEffect(() => () => board.done('live'), [board]);
}
