import { Spinner } from './spinner';

/**
 * What a signage page shows until its player has the file: black, the player's header bar with the ESC hint where
 * the player's own header puts it, and a spinner. One look for the three moments before the first page: the page as
 * the gateway sends it (the shell's build prerenders this frame, shell/src/prerender), the shell while the player
 * remote loads, and the player while it reads the file. A screen never flashes the site's light background between
 * them. The strings come translated: the server-side render has no i18n context of its own.
 */
export function PlayerFrame({ label, hint }: { label: string; hint: string }) {
  return (
    <div className="pc-player-frame" data-testid="player-frame">
      <div className="pc-player-frame__bar">
        <span className="pc-player-hint">{hint}</span>
      </div>
      <Spinner label={label} />
    </div>
  );
}
