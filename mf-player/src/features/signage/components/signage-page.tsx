import { PlayerFrame, Spinner } from '@pagecast/ui';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from '@pagecast/i18n';
import { classifyLoadError, isLogin, readLatest } from '../model/load-item';
import { applyAtBoundary, type DisplayMode, effectiveMode, pageDurationMs } from '../model/playback';
import { usePlayerControls } from '../model/use-player-controls';
import {
  useFullscreen,
  useLoginRedirect,
  useOfflinePrecache,
  useOnline,
  useSwipePages,
} from '../model/use-player-environment';
import { canTurnPages } from '../model/controls';
import { useSignagePlayback } from '../model/use-signage-playback';
import { PlayerControls, PlayerHeader } from './player-chrome';
import { ImageFallback, StateCard } from './state-card';
import './player.css';

/**
 * The signage player (/signage/:fileId?playlist=&index=&autoplay=). What is on screen (the snapshot) changes only at
 * page boundaries; live events and refetches update the react-query data, which the next boundary applies.
 */
export function SignagePage() {
  const { t } = useTranslation();
  const { sources, play, shown, layers, routes, liveState, advance } = useSignagePlayback();
  const { fileId, playlistId, fileQ, pagesQ, itemsQ } = sources;
  const { playing, setPlaying, gone } = play;
  const { snapshot, pageIndex, imageFailed, appliedAt, tick } = shown;
  const [pickedMode, setPickedMode] = useState<DisplayMode | null>(null);
  const qc = useQueryClient();

  const stopPlaying = useCallback(() => setPlaying(false), [setPlaying]);
  const { rootRef, fullscreen, enter: enterFullscreen, exit: exitFullscreen } = useFullscreen(stopPlaying);
  const controls = usePlayerControls({ playing, setPlaying, advance, exitFullscreen });
  const controlsVisible = controls.visible;
  const online = useOnline();
  useOfflinePrecache(qc, snapshot, () => routes.current.playlistId, itemsQ.data);

  const loginNeeded = isLogin(fileQ.error) || isLogin(pagesQ.error) || isLogin(itemsQ.error);
  useLoginRedirect(loginNeeded);

  // what is on screen stays until the next file is ready (no blank frame, even for a URL typed by hand)
  const showing = snapshot;
  const firstLoadError = snapshot?.file.id === fileId ? null : (fileQ.error ?? pagesQ.error);
  const failure = loginNeeded ? 'login' : firstLoadError ? classifyLoadError(firstLoadError) : null;
  const mode = effectiveMode(pickedMode, showing?.file);
  const pageCount = showing?.pages.length ?? 0;
  const showingVideo = showing?.pages[pageIndex]?.video ?? null;
  const playableItems = showing?.items?.filter((i) => i.file) ?? [];
  const playlistPosition =
    playlistId && showing?.items
      ? {
          current:
            Math.max(
              playableItems.findIndex((i) => i.fileId === fileId),
              0,
            ) + 1,
          total: playableItems.length,
        }
      : null;

  const ready = showing !== null && !gone && !failure;
  const turnable = canTurnPages(pageCount, playlistId ? playableItems.length : 0);
  useSwipePages(rootRef, (direction) => void advance(direction), ready && turnable);
  // an update has arrived and waits for the next page boundary (never applied mid-page)
  const pending = snapshot !== null && applyAtBoundary(snapshot, readLatest(qc, snapshot.file.id, playlistId)).changed;
  return (
    <div
      ref={rootRef}
      className={`pc-player pc-player--${mode}${playing ? ' is-playing' : ''}${controlsVisible ? ' show-controls' : ''}`}
      data-testid="remote-mf_player"
      data-player="signage"
      data-file-id={showing?.file.id ?? ''}
      data-page-index={pageIndex}
      data-playing={String(playing)}
      data-controls={controlsVisible || !playing ? 'shown' : 'hidden'}
      data-live={liveState}
      data-mode={mode}
      data-playlist-files={showing?.items?.map((i) => i.fileId).join(',') ?? ''}
      data-duration-ms={showing ? pageDurationMs(showing.pages[pageIndex], showing.file) : ''}
      data-applied-at={appliedAt.current ?? ''}
      data-update-pending={String(pending)}
    >
      <div className="pc-player__stage" data-testid="player-stage">
        <img
          ref={layers.setLayer(0)}
          className="pc-player__layer"
          data-front="false"
          data-testid="player-layer"
          alt=""
        />
        <img
          ref={layers.setLayer(1)}
          className="pc-player__layer"
          data-front="false"
          data-testid="player-layer"
          alt=""
        />
        {showingVideo ? (
          <PageVideo
            key={tick}
            url={showingVideo.url}
            poster={showing?.pages[pageIndex]?.imagePath}
            playing={playing}
            onEnded={() => void advance('next')}
          />
        ) : null}
      </div>
      <PlayerOverlay
        gone={gone}
        failure={failure}
        title={showing?.file.title ?? null}
        pageCount={pageCount}
        pageNumber={pageIndex + 1}
        imageFailed={imageFailed}
      />
      {!online && ready ? <span className="pc-player__badge">{t('player.offline')}</span> : null}
      {ready && (!playing || controlsVisible) ? (
        <PlayerHeader
          title={showing.file.title}
          pageNumber={pageCount ? pageIndex + 1 : 0}
          pageCount={pageCount}
          mode={mode}
          onMode={setPickedMode}
          playing={playing}
          onTogglePlay={() => setPlaying((p) => !p)}
          fullscreen={fullscreen}
          onToggleFullscreen={() => (fullscreen ? exitFullscreen() : enterFullscreen())}
          onLeave={controls.leave}
          playlistPosition={playlistPosition}
        />
      ) : null}
      {ready ? (
        <PlayerControls
          current={pageCount ? pageIndex + 1 : 0}
          total={pageCount}
          onPrevious={() => void advance('previous')}
          onNext={() => void advance('next')}
          disabled={!turnable}
        />
      ) : null}
    </div>
  );
}

/**
 * A video's page: the video over its poster (already drawn in the layer below, so no blank frame), muted and inline,
 * a new element for each showing (keyed by it); paused with the player; its end moves on.
 */
function PageVideo({
  url,
  poster,
  playing,
  onEnded,
}: {
  url: string;
  poster: string | undefined;
  playing: boolean;
  onEnded: () => void;
}) {
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.muted = true;
    if (playing) void Promise.resolve(el.play()).catch(() => undefined);
    else el.pause();
  }, [playing]);
  return (
    <video
      ref={ref}
      className="pc-player__video"
      data-testid="player-video"
      src={url}
      poster={poster}
      muted
      playsInline
      preload="auto"
      onEnded={() => {
        if (playing) onEnded();
      }}
    />
  );
}

/** Over the stage: the file is gone, failed to load, is loading or converting, or its page's image failed. */
function PlayerOverlay({
  gone,
  failure,
  title,
  pageCount,
  pageNumber,
  imageFailed,
}: {
  gone: boolean;
  failure: ReturnType<typeof classifyLoadError> | 'login' | null;
  /** the file on screen (null: none yet) */
  title: string | null;
  pageCount: number;
  pageNumber: number;
  imageFailed: boolean;
}) {
  const { t } = useTranslation();
  if (gone || failure === 'not-found')
    return <StateCard title={t('player.notFoundTitle')} description={t('player.notFoundDescription')} back />;
  if (failure === 'failed')
    return <StateCard title={t('player.loadFailedTitle')} description={t('player.loadFailedDescription')} />;
  // the frame the page was sent with and the shell kept while this remote loaded (@pagecast/ui PlayerFrame)
  if (failure === 'login' || title === null)
    return <PlayerFrame label={t('player.loading')} hint={t('player.escHint')} />;
  if (pageCount === 0)
    return (
      <div className="pc-player__overlay">
        <Spinner label={t('player.preparing')} />
      </div>
    );
  if (imageFailed) return <ImageFallback title={title} pageNumber={pageNumber} />;
  return null;
}
