import {
  Button,
  IconChevronLeft,
  IconChevronRight,
  IconClose,
  IconExitFullscreen,
  IconFullscreen,
  IconPause,
  IconPlay,
} from '@pagecast/ui';
import { useTranslation } from '@pagecast/i18n';
import type { DisplayMode } from '../model/playback';

const modes: DisplayMode[] = ['fit-width', 'fit-height', 'fill'];

export interface PlayerHeaderProps {
  title: string;
  pageNumber: number;
  pageCount: number;
  mode: DisplayMode;
  onMode: (mode: DisplayMode) => void;
  playing: boolean;
  onTogglePlay: () => void;
  fullscreen: boolean;
  onToggleFullscreen: () => void;
  onLeave: () => void;
  playlistPosition?: { current: number; total: number } | null;
}

/**
 * Shown before playing and when paused, and while playing for a few seconds after a tap or a mouse move: title,
 * page, display mode, play/pause, fullscreen, the ESC hint and a way out (a touch screen has no ESC key).
 */
export function PlayerHeader(props: PlayerHeaderProps) {
  const { t } = useTranslation();
  return (
    <header className="pc-player__header" data-testid="player-header">
      <h1 className="pc-player__title" data-testid="player-title">
        {props.title}
      </h1>
      <span className="pc-player__meta" data-testid="player-page-of">
        {t('player.pageOf', { current: props.pageNumber, total: props.pageCount })}
      </span>
      {props.playlistPosition ? (
        <span className="pc-player__meta" data-testid="player-playlist-position">
          {t('player.playlistPosition', props.playlistPosition)}
        </span>
      ) : null}
      <span className="pc-player__spacer" />
      <select
        className="pc-player__select"
        aria-label={t('player.displayMode')}
        data-testid="player-mode"
        value={props.mode}
        onChange={(e) => props.onMode(e.target.value as DisplayMode)}
      >
        {modes.map((m) => (
          <option key={m} value={m}>
            {t(`player.modes.${m}`)}
          </option>
        ))}
      </select>
      <Button
        size="sm"
        data-testid="player-play"
        onClick={props.onTogglePlay}
        aria-label={props.playing ? t('player.pause') : t('player.play')}
      >
        {props.playing ? <IconPause /> : <IconPlay />}
        <Words>{props.playing ? t('player.pause') : t('player.play')}</Words>
      </Button>
      <Button
        size="sm"
        variant="secondary"
        data-testid="player-fullscreen"
        onClick={props.onToggleFullscreen}
        aria-label={props.fullscreen ? t('player.exitFullscreen') : t('player.fullscreen')}
      >
        {props.fullscreen ? <IconExitFullscreen /> : <IconFullscreen />}
        <Words>{props.fullscreen ? t('player.exitFullscreen') : t('player.fullscreen')}</Words>
      </Button>
      <span className="pc-player-hint">{t('player.escHint')}</span>
      <Button
        size="sm"
        variant="secondary"
        data-testid="player-leave"
        onClick={props.onLeave}
        aria-label={t('player.leave')}
      >
        <IconClose />
        <Words>{t('player.leave')}</Words>
      </Button>
    </header>
  );
}

/** A button's words, hidden on a phone where the icon stands for them (the button keeps them as its name). */
const Words = ({ children }: { children: string }) => <span className="pc-player__words">{children}</span>;

/** Bottom controls: previous, 'current / total', next; off when there is no other page to go to. */
export function PlayerControls(props: {
  current: number;
  total: number;
  onPrevious: () => void;
  onNext: () => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <nav className="pc-player__controls" data-testid="player-controls">
      <Button
        size="sm"
        variant="secondary"
        data-testid="player-previous"
        onClick={props.onPrevious}
        disabled={props.disabled}
        aria-label={t('player.previous')}
      >
        <IconChevronLeft />
        <Words>{t('player.previous')}</Words>
      </Button>
      <span className="pc-player__counter" data-testid="player-counter">
        {t('player.counter', { current: props.current, total: props.total })}
      </span>
      <Button
        size="sm"
        variant="secondary"
        data-testid="player-next"
        onClick={props.onNext}
        disabled={props.disabled}
        aria-label={t('player.next')}
      >
        <Words>{t('player.next')}</Words>
        <IconChevronRight />
      </Button>
    </nav>
  );
}
