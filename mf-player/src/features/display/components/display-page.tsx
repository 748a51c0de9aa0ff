import type { DeviceScreen, ShownReport } from '@pagecast/contracts';
import qrcode from 'qrcode-generator';
import { type CSSProperties, type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from '@pagecast/i18n';
import { useOfflineApp } from '../../../lib/use-offline-app';
import { useOpenNow } from '../model/opening-hours';
import { createPlayLog } from '../model/play-log';
import { shownReportOf, withVideoSecond } from '../model/shown-report';
import { type StageLayout, useStageLayout } from '../model/stage';
import { createWaitingBoard, useWaiting, type WaitingBoard } from '../model/retry';
import { useDisplaySession } from '../model/use-display-session';
import type { Slide } from '../model/slides';
import { useDisplayPlayer } from '../model/use-display-player';
import { useVideoSlides } from '../model/use-video-slides';
import { useDeviceLink, useHeartbeat, useLiveUpdates, usePlayFlush } from '../model/use-display-links';
import { usePageImages } from '../model/use-page-image';
import { AlertFileScreen, AlertScreen } from './alert-screen';
import { IdleScreen, TakeoverMessage } from './display-screens';
import { VideoSlide } from './video-slide';
import './display.css';

export { DISPLAY_APP_VERSION } from '../model/use-display-links';

/** /screen: a display pairs by a code shown on it, then plays what its screen is given, on its own. */
export function DisplayPage() {
  const board = useMemo(createWaitingBoard, []);
  const { state, refresh, given, unpaired } = useDisplaySession(board);
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
      given={given}
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
  given,
  unpaired,
  board,
}: {
  screen: DeviceScreen;
  refresh: () => Promise<void>;
  given: (version: string, manifest: string) => boolean;
  unpaired: () => void;
  board: WaitingBoard;
}) {
  const log = useMemo(() => createPlayLog(window.localStorage), []);
  const [version, setVersion] = useState(0);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  // one socket for the display's calls and changes, HTTP and the live stream when it cannot open (device-link.ts)
  const link = useDeviceLink({ refresh, given, reload, unpaired, board });
  // Outside its opening hours (on its own clock, offline too) the display is black and plays nothing.
  const open = useOpenNow(screen.openingHours, screen.timeZone);
  const stage = useStageLayout(screen.rotation);
  // the second each showing's video reached (kept by the videos' model, made after the player that needs it)
  const reachedOf = useRef<(step: number) => number | null>(() => null);
  const { playing, because, slide, showing, next, finished, watched } = useDisplayPlayer(screen, {
    version,
    active: open,
    onPlayed: (r) => log.add(r),
    board,
    reachedOf: (step) => reachedOf.current(step),
    // its playlist and pages over the socket while it is live (one connection, not one per read), else HTTP
    link,
  });
  const images = usePageImages(
    slide?.imagePath ?? null,
    watched.slides.map((s) => s.imagePath),
    board,
  );
  const videos = useVideoSlides(finished);
  reachedOf.current = videos.reachedOf;

  // What is on screen, as reported: a page, the takeover's message, or nothing (closed, or nothing to play).
  const takeoverId = because.rule === 'takeover' ? because.takeoverId : null;
  // a disaster alert is reported as its takeover's message too (a takeover without a file)
  const messageOf = playing.kind === 'message' || playing.kind === 'alert' ? takeoverId : null;
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
          image: showing.slide.video
            ? videos.stateOf(showing.slide.video.url)
            : images.imageOf(showing.slide.imagePath),
          video: showing.slide.video ? { frozenAt: videos.frozenAt(showing.slide.video.url, showing.step) } : null,
        }
      : null,
    since,
  });
  const showingStep = showing?.step ?? null;
  useHeartbeat({
    shows,
    closed: !open,
    nowPlaying: slide ? { fileId: slide.fileId, page: slide.page } : null,
    heartbeatSeconds: screen.heartbeatSeconds,
    unpaired,
    board,
    link,
    stamp: (report) => withVideoSecond(report, showingStep === null ? null : videos.reachedOf(showingStep)),
  });
  usePlayFlush(log, screen.screenId, unpaired, board, link);
  useLiveUpdates({ screen, fileIds: watched.slides.map((s) => s.fileId), refresh, reload, board, link });

  // Closed: black, nothing drawn.
  if (!open) {
    return (
      <main className="pc-display pc-display--closed" data-testid="display-closed" data-screen={screen.screenId}>
        <WaitingLine board={board} />
      </main>
    );
  }
  return (
    <main
      className={
        playing.kind === 'alert'
          ? 'pc-display pc-display--alert'
          : playing.kind === 'message'
            ? 'pc-display pc-display--message'
            : 'pc-display'
      }
      data-testid="display-playing"
      data-screen={screen.screenId}
      data-takeover={takeoverId ?? undefined}
    >
      <Stage layout={stage}>
        {playing.kind === 'alert' && playing.fileId && slide ? (
          // the rule's file, the facts banded over it (its pages not readable yet, or ever: the words below)
          <AlertFileScreen alert={playing} timeZone={screen.timeZone}>
            <PageImageView slide={slide} images={images} />
          </AlertFileScreen>
        ) : playing.kind === 'alert' ? (
          <AlertScreen alert={playing} timeZone={screen.timeZone} />
        ) : playing.kind === 'message' ? (
          // A message takeover: the member's own words (not translated), full-screen, ahead of every schedule.
          <TakeoverMessage
            title={playing.title}
            body={playing.body}
            startsAt={screen.takeovers?.find((x) => x.id === takeoverId)?.startsAt ?? null}
            timeZone={screen.timeZone}
          />
        ) : slide && showing ? (
          <SlideView showing={showing} next={next} images={images} videos={videos} finished={finished} />
        ) : (
          <IdleScreen name={screen.name} unassigned={playing.kind === 'none'} />
        )}
        <WaitingLine board={board} />
      </Stage>
    </main>
  );
}

/**
 * The slide on screen, and the next one when it is a video (mounted hidden, loaded and decoded ahead). One keyed list,
 * so the prepared <video> (keyed by its showing's step) is the element shown when its turn comes.
 */
function SlideView({
  showing,
  next,
  images,
  videos,
  finished,
}: {
  showing: { slide: Slide; step: number; at: number };
  next: Slide | undefined;
  images: ReturnType<typeof usePageImages>;
  videos: ReturnType<typeof useVideoSlides>;
  finished: (step: number) => void;
}) {
  const { slide, step } = showing;
  const items: ReactNode[] = [];
  if (slide.video) {
    const url = slide.video.url;
    items.push(
      <VideoSlide
        key={`video-${step}`}
        slide={{ ...slide, video: slide.video }}
        step={step}
        active
        onEnded={finished}
        onPlaying={() => videos.played(url)}
        onFailed={() => videos.failed(url, step)}
        onTime={(second) => videos.timeAt(step, second)}
        onFrozen={(second) => videos.frozen(url, step, second)}
      />,
    );
  } else items.push(<PageImageView key="page" slide={slide} images={images} />);
  // after a video, the page that follows is mounted hidden too, drawn and decoded, and becomes the element shown
  if (slide.video && next && !next.video) items.push(<PageImageView key="page" slide={next} images={images} next />);
  if (next?.video) {
    items.push(
      <VideoSlide
        key={`video-${step + 1}`}
        slide={{ ...next, video: next.video }}
        step={step + 1}
        active={false}
        onEnded={finished}
        onPlaying={() => {}}
        onFailed={() => {}}
      />,
    );
  }
  return <>{items}</>;
}

/** The page on screen: its image, asked again after a failure (model/use-page-image.ts). */
function PageImageView({
  slide,
  images,
  next = false,
}: {
  slide: { fileId: string; page: number; imagePath: string };
  images: ReturnType<typeof usePageImages>;
  /** the page after the video on screen: hidden until its turn */
  next?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <img
      className={next ? 'pc-display__page pc-display__next' : 'pc-display__page'}
      aria-hidden={next ? true : undefined}
      src={images.srcOf(slide.imagePath)}
      alt={t('screens.display.pageAlt', { page: slide.page + 1 })}
      data-file={slide.fileId}
      data-page={slide.page}
      onLoad={() => images.loaded(slide.imagePath)}
      onError={() => images.failed(slide.imagePath)}
    />
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
