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
import type { ReactNode } from 'react';
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
      <h1 className="pc-player__title" data-testid="player-title" title={props.title}>
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
      <ChromeButton
        testId="player-play"
        variant="primary"
        label={props.playing ? t('player.pause') : t('player.play')}
        icon={props.playing ? <IconPause /> : <IconPlay />}
        onClick={props.onTogglePlay}
      />
      <ChromeButton
        testId="player-fullscreen"
        label={props.fullscreen ? t('player.exitFullscreen') : t('player.fullscreen')}
        icon={props.fullscreen ? <IconExitFullscreen /> : <IconFullscreen />}
        onClick={props.onToggleFullscreen}
      />
      <span className="pc-player-hint">{t('player.escHint')}</span>
      <ChromeButton testId="player-leave" label={t('player.leave')} icon={<IconClose />} onClick={props.onLeave} />
    </header>
  );
}

/** A button of the player's bands: its icon and words; on a phone the icon alone, the words kept as its name. */
function ChromeButton({
  testId,
  label,
  icon,
  iconAfter = false,
  variant = 'secondary',
  onClick,
  disabled,
}: {
  testId: string;
  label: string;
  icon: ReactNode;
  iconAfter?: boolean;
  variant?: 'primary' | 'secondary';
  onClick: () => void;
  disabled?: boolean;
}) {
  const words = <span className="pc-player__words">{label}</span>;
  return (
    <Button size="sm" variant={variant} data-testid={testId} onClick={onClick} disabled={disabled} aria-label={label}>
      {iconAfter ? words : icon}
      {iconAfter ? icon : words}
    </Button>
  );
}

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
      <ChromeButton
        testId="player-previous"
        label={t('player.previous')}
        icon={<IconChevronLeft />}
        onClick={props.onPrevious}
        disabled={props.disabled}
      />
      <span className="pc-player__counter" data-testid="player-counter">
        {t('player.counter', { current: props.current, total: props.total })}
      </span>
      <ChromeButton
        testId="player-next"
        label={t('player.next')}
        icon={<IconChevronRight />}
        iconAfter
        onClick={props.onNext}
        disabled={props.disabled}
      />
    </nav>
  );
}
