import {
  contentOfInputs,
  deviceInputs,
  type HeartbeatRequest,
  type ImageError,
  SCREEN_HEARTBEAT_SECONDS,
  type ShownReport,
} from '@pagecast/contracts';
import qrcode from 'qrcode-generator';
import { type CSSProperties, type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from '@pagecast/i18n';
import { liveUrl } from '../../../lib/events-since';
import { useOfflineApp } from '../../../lib/use-offline-app';
import { imageStatusOf } from '../api/image-status';
import { sendHeartbeat } from '../api/send-heartbeat';
import { registerKey } from '../api/register-key';
import { sendPlays } from '../api/send-plays';
import { useOpenNow } from '../model/opening-hours';
import { displayKeyStore, platformSubtle } from '../model/display-keys';
import { createPlayLog } from '../model/play-log';
import { createPlaySender } from '../model/play-sender';
import { beatWithReport, createShownReporter, imageErrorOf, settled, shownReportOf } from '../model/shown-report';
import { type StageLayout, useStageLayout } from '../model/stage';
import { createWaitingBoard, retryDelay, useWaiting, type WaitingBoard } from '../model/retry';
import { isUnauthorized, useDisplaySession } from '../model/use-display-session';
import { useDisplayPlayer } from '../model/use-display-player';
import { IdleScreen, TakeoverMessage } from './display-screens';
import './display.css';

/** Reported with each heartbeat; the Screens page shows it. */
export const DISPLAY_APP_VERSION = '1.0.0';
const FLUSH_MS = 10_000;

/** /screen: a display pairs by a code shown on it, then plays what its screen is given, on its own. */
export function DisplayPage() {
  const board = useMemo(createWaitingBoard, []);
  const { state, refresh, unpaired } = useDisplaySession(board);
  useOfflineApp();
  if (state.kind === 'starting')
    return (
      <main className="pc-display" aria-busy="true">
        <WaitingLine board={board} />
      </main>
    );
  if (state.kind === 'pairing') return <PairingCode code={state.pairing?.code ?? null} board={board} />;
  return (
    <PairedDisplay
      key={state.screen.screenId}
      screen={state.screen}
      refresh={refresh}
      unpaired={unpaired}
      board={board}
    />
  );
}

/**
 * What the display waits for, and when it tries again (a person looking at a stuck display knows it is trying, and
 * what for); nothing while every request answers.
 */
function WaitingLine({ board }: { board: WaitingBoard }) {
  const { t } = useTranslation();
  const waiting = useWaiting(board);
  const [, tick] = useState(0);
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => tick((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, [waiting]);
  if (!waiting) return null;
  const seconds = Math.max(0, Math.ceil((waiting.retryAt - Date.now()) / 1000));
  const what = t(`screens.display.waiting.${waiting.what}`);
  return (
    <p className="pc-display__waiting" data-testid="display-waiting" data-waiting={waiting.what} role="status">
      {seconds > 0
        ? t('screens.display.waiting.line', { what, count: seconds })
        : t('screens.display.waiting.lineNow', { what })}
    </p>
  );
}

function PairingCode({ code, board }: { code: string | null; board: WaitingBoard }) {
  const { t } = useTranslation();
  const link = code ? `${window.location.origin}/screens?code=${code}` : '';
  const qr = useMemo(() => {
    if (!link) return '';
    const q = qrcode(0, 'M');
    q.addData(link);
    q.make();
    return q.createDataURL(6, 2);
  }, [link]);
  return (
    <main className="pc-display pc-display--pairing">
      <h1>{t('screens.display.title')}</h1>
      <p>{t('screens.display.help')}</p>
      <p className="pc-display__code" data-testid="pairing-code" aria-live="polite">
        {code ?? '······'}
      </p>
      {qr ? <img className="pc-display__qr" src={qr} alt={t('screens.display.qr')} width={220} height={220} /> : null}
      <WaitingLine board={board} />
    </main>
  );
}

function PairedDisplay({
  screen,
  refresh,
  unpaired,
  board,
}: {
  screen: Parameters<typeof useDisplayPlayer>[0];
  refresh: () => Promise<void>;
  unpaired: () => void;
  board: WaitingBoard;
}) {
  const { t } = useTranslation();
  const log = useMemo(() => createPlayLog(window.localStorage), []);
  const [version, setVersion] = useState(0);
  // Outside its opening hours (on its own clock, offline too) the display is black and plays nothing.
  const open = useOpenNow(screen.openingHours, screen.timeZone);
  const stage = useStageLayout(screen.rotation);
  const { playing, because, slide, showing, watched } = useDisplayPlayer(screen, {
    version,
    active: open,
    onPlayed: (r) => log.add(r),
    board,
  });
  const nowPlaying = useRef<{ fileId: string | null; page: number | null } | null>(null);
  nowPlaying.current = slide ? { fileId: slide.fileId, page: slide.page } : null;

  // How the page's image went (by its address: a one-page loop keeps its drawn image); a failure is looked at again
  // to tell forbidden, not found, undecodable or unreachable.
  const [image, setImage] = useState<{ src: string; loaded: boolean; error: ImageError | null } | null>(null);
  const imageLoaded = (src: string) => setImage({ src, loaded: true, error: null });
  const imageFailed = (src: string) => {
    void imageStatusOf(src).then((status) =>
      setImage((now) => (now?.src === src && now.loaded ? now : { src, loaded: false, error: imageErrorOf(status) })),
    );
  };

  // What is on screen, as reported: a page, the takeover's message, or nothing (closed, or nothing to play).
  const takeoverId = because.rule === 'takeover' ? because.takeoverId : null;
  const messageOf = playing.kind === 'message' ? takeoverId : null;
  const pictureKey = !open ? 'closed' : messageOf !== null ? `message:${messageOf}` : showing ? 'page' : 'blank';
  // biome-ignore lint/correctness/useExhaustiveDependencies: the time the picture's kind changed
  const since = useMemo(() => Date.now(), [pictureKey]);
  const shows: ShownReport = shownReportOf({
    closed: !open,
    messageOf,
    page: showing
      ? {
          fileId: showing.slide.fileId,
          page: showing.slide.pageNumber,
          shownAt: showing.at,
          holdSeconds: showing.slide.seconds,
          image: image?.src === showing.slide.imagePath ? image : null,
        }
      : null,
    since,
  });
  const showsRef = useRef(shows);
  showsRef.current = shows;
  const closedRef = useRef(!open);
  closedRef.current = !open;

  // Heartbeat, with what is shown (a refused report is dropped, the beat still counts); a 401 means unpaired.
  // Whether it reached the server.
  const refusedReport = useRef<string | null>(null);
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
        ...(refusedReport.current === key ? {} : { shows: report }),
      };
      return beatWithReport(sendHeartbeat, body)
        .then(({ reportRefused }) => {
          if (reportRefused) refusedReport.current = key;
          return true;
        })
        .catch((err) => {
          if (isUnauthorized(err)) unpaired();
          return false;
        });
    },
    [unpaired],
  );
  const reporter = useMemo(() => createShownReporter((report) => void beat(report)), [beat]);
  useEffect(() => () => reporter.stop(), [reporter]);
  // Regular beats (each carries what is shown, so a change report that failed is told by the next); a beat that
  // failed is tried again sooner, backing off (retry.ts), never later than the regular period.
  useEffect(() => {
    const every = (screen.heartbeatSeconds || SCREEN_HEARTBEAT_SECONDS) * 1000;
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
  }, [screen.heartbeatSeconds, beat, reporter, board]);
  // A change of the picture is told at once (at most every SHOWN_REPORT_MIN_SECONDS), a page once its image drew
  // or failed: the owner's pages show what the display shows.
  const showsKey = JSON.stringify(shows);
  // biome-ignore lint/correctness/useExhaustiveDependencies: showsKey stands for shows
  useEffect(() => {
    if (settled(showsRef.current)) reporter.change(showsRef.current);
  }, [showsKey, reporter]);

  // Proof of play: sent in signed batches (model/play-sender); kept while offline; a refused batch is dropped (it
  // would be refused again), and so is every record of an answered batch: counted, already counted, or refused one
  // by one (refusedByReason).
  const sender = useMemo(
    () =>
      createPlaySender({
        log,
        storage: window.localStorage,
        keys: displayKeyStore(),
        subtle: platformSubtle(),
        screenId: screen.screenId,
        send: sendPlays,
        registerKey,
      }),
    [log, screen.screenId],
  );
  // A batch that got no answer is sent again, backing off (retry.ts), and at once when the browser is back online.
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

  // Live: the screen's own changes, and the playlists and files it plays; a closed stream may mean revoked.
  const files = [...new Set(watched.slides.map((s) => s.fileId))].slice(0, 40);
  // (its own assignment's, its groups' and running takeovers': what the resolver may pick)
  const playlists = useMemo(() => contentOfInputs(deviceInputs(screen)).playlistIds.slice(0, 10), [screen]);
  const query = [
    ...playlists.map((id) => `playlist=${encodeURIComponent(id)}`),
    ...files.map((id) => `file=${encodeURIComponent(id)}`),
  ].join('&');
  // A stream that fails is closed and opened again by the display, backing off (retry.ts), rather than by the
  // browser's fixed reconnect (which also stops for good at a refusal, a 429 or a 503); the reopened stream names
  // the last event it had, so the gateway tells it to resync.
  const [liveTry, setLiveTry] = useState(0);
  const liveFailures = useRef(0);
  const lastEventId = useRef('');
  // biome-ignore lint/correctness/useExhaustiveDependencies: liveTry opens the stream again
  useEffect(() => {
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
    const reload = () => setVersion((v) => v + 1);
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
  }, [query, refresh, liveTry, board]);
  useEffect(() => () => board.done('live'), [board]);

  // Closed: black, nothing drawn.
  if (!open) {
    return (
      <main className="pc-display pc-display--closed" data-testid="display-closed" data-screen={screen.screenId}>
        <WaitingLine board={board} />
      </main>
    );
  }

  // A message takeover: the member's own words (not translated), full-screen, ahead of every schedule.
  if (playing.kind === 'message') {
    return (
      <main
        className="pc-display pc-display--message"
        data-testid="display-playing"
        data-screen={screen.screenId}
        data-takeover={takeoverId ?? undefined}
      >
        <Stage layout={stage}>
          <TakeoverMessage
            title={playing.title}
            body={playing.body}
            startsAt={screen.takeovers?.find((x) => x.id === takeoverId)?.startsAt ?? null}
            timeZone={screen.timeZone}
          />
          <WaitingLine board={board} />
        </Stage>
      </main>
    );
  }

  return (
    <main
      className="pc-display"
      data-testid="display-playing"
      data-screen={screen.screenId}
      data-takeover={takeoverId ?? undefined}
    >
      <Stage layout={stage}>
        {slide ? (
          <img
            className="pc-display__page"
            src={slide.imagePath}
            alt={t('screens.display.pageAlt', { page: slide.page + 1 })}
            data-file={slide.fileId}
            data-page={slide.page}
            onLoad={() => imageLoaded(slide.imagePath)}
            onError={() => imageFailed(slide.imagePath)}
          />
        ) : (
          <IdleScreen name={screen.name} unassigned={playing.kind === 'none'} />
        )}
        <WaitingLine board={board} />
      </Stage>
    </main>
  );
}

/** The turned stage everything is drawn on (see model/stage.ts). */
function Stage({ layout, children }: { layout: StageLayout; children: ReactNode }) {
  const style: CSSProperties = { width: layout.width, height: layout.height, transform: layout.transform };
  return (
    <div className="pc-display__stage" data-testid="display-stage" data-rotation={layout.rotation} style={style}>
      {children}
    </div>
  );
}
