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
import { isUnauthorized, useDisplaySession } from '../model/use-display-session';
import { useDisplayPlayer } from '../model/use-display-player';
import { IdleScreen, TakeoverMessage } from './display-screens';
import './display.css';

/** Reported with each heartbeat; the Screens page shows it. */
export const DISPLAY_APP_VERSION = '1.0.0';
const FLUSH_MS = 10_000;

/** /screen: a display pairs by a code shown on it, then plays what its screen is given, on its own. */
export function DisplayPage() {
  const { state, refresh, unpaired } = useDisplaySession();
  useOfflineApp();
  if (state.kind === 'starting') return <main className="pc-display" aria-busy="true" />;
  if (state.kind === 'pairing') return <PairingCode code={state.pairing?.code ?? null} />;
  return <PairedDisplay key={state.screen.screenId} screen={state.screen} refresh={refresh} unpaired={unpaired} />;
}

function PairingCode({ code }: { code: string | null }) {
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
    </main>
  );
}

function PairedDisplay({
  screen,
  refresh,
  unpaired,
}: {
  screen: Parameters<typeof useDisplayPlayer>[0];
  refresh: () => Promise<void>;
  unpaired: () => void;
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
  const refusedReport = useRef<string | null>(null);
  const beat = useCallback(
    (report: ShownReport) => {
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
        })
        .catch((err) => {
          if (isUnauthorized(err)) unpaired();
        });
    },
    [unpaired],
  );
  const reporter = useMemo(() => createShownReporter((report) => void beat(report)), [beat]);
  useEffect(() => () => reporter.stop(), [reporter]);
  useEffect(() => {
    const regular = () => {
      reporter.told(showsRef.current);
      void beat(showsRef.current);
    };
    regular();
    const timer = setInterval(regular, (screen.heartbeatSeconds || SCREEN_HEARTBEAT_SECONDS) * 1000);
    return () => clearInterval(timer);
  }, [screen.heartbeatSeconds, beat, reporter]);
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
  useEffect(() => {
    let sending = false;
    const flush = async () => {
      if (sending) return;
      sending = true;
      try {
        if ((await sender.flush()) === 'unpaired') unpaired();
      } finally {
        sending = false;
      }
    };
    const timer = setInterval(flush, FLUSH_MS);
    window.addEventListener('online', flush);
    return () => {
      clearInterval(timer);
      window.removeEventListener('online', flush);
    };
  }, [sender, unpaired]);

  // Live: the screen's own changes, and the playlists and files it plays; a closed stream may mean revoked.
  const files = [...new Set(watched.slides.map((s) => s.fileId))].slice(0, 40);
  // (its own assignment's, its groups' and running takeovers': what the resolver may pick)
  const playlists = useMemo(() => contentOfInputs(deviceInputs(screen)).playlistIds.slice(0, 10), [screen]);
  const query = [
    ...playlists.map((id) => `playlist=${encodeURIComponent(id)}`),
    ...files.map((id) => `file=${encodeURIComponent(id)}`),
  ].join('&');
  useEffect(() => {
    // since: a screen that starts (or swaps what it watches) long after the last change need not refetch it all
    const source = new EventSource(liveUrl(`/api/events${query ? `?${query}` : ''}`));
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
    // The browser reconnects by itself; a refusal (revoked) closes the source: ask the server what happened.
    source.onerror = () => {
      if (source.readyState === EventSource.CLOSED) void refresh();
    };
    return () => {
      source.close();
      window.removeEventListener('online', online);
    };
  }, [query, refresh]);

  // Closed: black, nothing drawn.
  if (!open) {
    return (
      <main className="pc-display pc-display--closed" data-testid="display-closed" data-screen={screen.screenId} />
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
