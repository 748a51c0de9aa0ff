import { playRefusalReasons } from '@pagecast/contracts';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import en from '../src/locales/en/index';
import fr from '../src/locales/fr/index';
import it_ from '../src/locales/it/index';
import ja from '../src/locales/ja/index';

const catalogues = { ja, en, fr, it: it_ };

describe("the Screens page's refused records", () => {
  it('name every refusal reason of the contracts, and count refused records in each language', async () => {
    for (const [lng, translation] of Object.entries(catalogues)) {
      const t = (await i18next.createInstance().init({ lng, resources: { [lng]: { translation } } })) as unknown as (
        key: string,
        opts?: Record<string, unknown>,
      ) => string;
      for (const reason of playRefusalReasons) {
        const label = t(`screens.refusal.${reason}`);
        expect(label, `${lng} ${reason}`).not.toBe(`screens.refusal.${reason}`);
      }
      const labels = playRefusalReasons.map((r) => t(`screens.refusal.${r}`));
      expect(new Set(labels).size, lng).toBe(labels.length);
      for (const count of [0, 1, 2, 1_000_000]) {
        const text = t('screens.refusedTotal', { count });
        expect(text, `${lng} ${count}`).toContain(count.toString());
        expect(text).not.toContain('screens.');
      }
    }
    // the forms a language needs: one record against several
    const t = await i18next.createInstance().init({ lng: 'fr', resources: { fr: { translation: fr } } });
    expect(t('screens.refusedTotal', { count: 1 })).toBe('1 enregistrement n’a pas été compté');
    expect(t('screens.refusedTotal', { count: 2 })).toBe('2 enregistrements n’ont pas été comptés');
    const tEn = await i18next.createInstance().init({ lng: 'en', resources: { en: { translation: en } } });
    expect(tEn('screens.refusedTotal', { count: 1 })).toBe('1 record was not counted');
    expect(tEn('screens.refusedTotal', { count: 3 })).toBe('3 records were not counted');
  });
});
