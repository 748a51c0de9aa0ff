// The player's header shows the display-mode selector beside the fullscreen button: the 'fill' mode and the button
// had the same name in French ('Plein écran' twice) and Italian, and near ones in English and Japanese.
// One term per thing per language: the modes' names are the same wherever they appear.
import { describe, expect, it } from 'vitest';
import en from '../src/locales/en/index';
import fr from '../src/locales/fr/index';
import it_ from '../src/locales/it/index';
import ja from '../src/locales/ja/index';

const catalogues = { ja, en, fr, it: it_ };
const modes = ['fit-width', 'fit-height', 'fill'] as const;

/** Case, spaces, hyphens and apostrophes do not tell two names apart for a reader. */
const normal = (text: string) => text.toLocaleLowerCase().replace(/[\s\-'’]/g, '');

describe('display modes and the fullscreen button', () => {
  for (const [lang, c] of Object.entries(catalogues)) {
    it(`have names that neither repeat nor contain one another (${lang})`, () => {
      const modeNames = modes.map((m) => c.player.modes[m]);
      const buttonNames = [c.player.fullscreen, c.player.exitFullscreen];
      const all = [...modeNames, ...buttonNames, c.player.leave];
      expect(new Set(all.map(normal)).size, all.join(' | ')).toBe(all.length);
      for (const mode of modeNames)
        for (const button of buttonNames) {
          expect(normal(button).includes(normal(mode)), `${mode} / ${button}`).toBe(false);
          expect(normal(mode).includes(normal(button)), `${mode} / ${button}`).toBe(false);
        }
    });

    it(`name each mode alike in the player, the file cards and the landing page (${lang})`, () => {
      expect(c.files.displayModes).toEqual(c.player.modes);
      const landing = normal(c.landing.features.fullscreen.description);
      for (const m of modes) expect(landing, m).toContain(normal(c.player.modes[m]));
    });
  }

  it('keep the spec’s Japanese mode names', () => {
    expect(ja.player.modes).toEqual({ 'fit-width': '横長', 'fit-height': '縦長', fill: '全画面' });
  });
});
