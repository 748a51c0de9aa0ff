// One term per thing per language (issue 36): the glossary beside the catalogues names, for each product term, the
// word each language uses and the variants it must not use ("Retrait" and "Convertir en argent" for one cash-out).
import { describe, expect, it } from 'vitest';
import glossary from '../src/glossary.json';
import en from '../src/locales/en/index';
import fr from '../src/locales/fr/index';
import it_ from '../src/locales/it/index';
import ja from '../src/locales/ja/index';

type Tree = { [key: string]: string | Tree };
type Language = 'ja' | 'en' | 'fr' | 'it';
interface Entry {
  use: string;
  avoid?: string[];
}
const languages: Language[] = ['ja', 'en', 'fr', 'it'];
const catalogues: Record<Language, Tree> = { ja, en, fr, it: it_ };
const terms = glossary.terms as Record<string, Partial<Record<Language, Entry>>>;

function flatten(tree: Tree, prefix = ''): Array<[string, string]> {
  return Object.entries(tree).flatMap(([key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    return typeof value === 'string' ? [[path, value] as [string, string]] : flatten(value, path);
  });
}
/** one apostrophe, and no interpolation variables ({{count}} is not a word of the text) */
const normal = (text: string) => text.replace(/'/g, '’').replace(/{{\s*\w+\s*}}/g, ' ');
const textsOf = (lang: Language) => flatten(catalogues[lang]).map(([key, text]) => [key, normal(text)] as const);
const texts: Record<Language, ReadonlyArray<readonly [string, string]>> = {
  ja: textsOf('ja'),
  en: textsOf('en'),
  fr: textsOf('fr'),
  it: textsOf('it'),
};

/** A variant as a whole word (Japanese has no spaces between words: there it is any occurrence). */
const variantPattern = (lang: Language, variant: string) =>
  lang === 'ja'
    ? new RegExp(normal(variant), 'u')
    : new RegExp(`(?<![\\p{L}\\p{N}])(?:${normal(variant)})(?![\\p{L}])`, 'iu');

describe('the glossary', () => {
  it('names every product term in the four languages, each word in use in its catalogue', () => {
    expect(Object.keys(terms).length).toBeGreaterThanOrEqual(20);
    const unused: string[] = [];
    for (const [term, byLanguage] of Object.entries(terms)) {
      for (const lang of languages) {
        const entry = byLanguage[lang];
        expect(entry?.use, `${term}.${lang}`).toBeTruthy();
        const word = normal(entry?.use ?? '').toLowerCase();
        if (!texts[lang].some(([, text]) => text.toLowerCase().includes(word)))
          unused.push(`${lang}: ${term} "${word}"`);
      }
    }
    expect(unused).toEqual([]);
  });

  it('finds no forbidden variant in any catalogue text', () => {
    const found: string[] = [];
    for (const [term, byLanguage] of Object.entries(terms)) {
      for (const lang of languages) {
        const entry = byLanguage[lang];
        for (const variant of entry?.avoid ?? []) {
          const pattern = variantPattern(lang, variant);
          for (const [key, text] of texts[lang]) {
            const hit = pattern.exec(text);
            if (hit) found.push(`${lang}:${key} says "${hit[0]}" for ${term}: use "${entry?.use}"`);
          }
        }
      }
    }
    expect(found).toEqual([]);
  });

  it('catches a forbidden variant (the French cash-out the issue found)', () => {
    const avoid = terms.cashOut?.fr?.avoid ?? [];
    expect(avoid.some((v) => variantPattern('fr', v).test(normal('Convertir en argent')))).toBe(true);
    expect(avoid.some((v) => variantPattern('fr', v).test(normal('Retrait')))).toBe(false);
    expect(
      (terms.marketplace?.fr?.avoid ?? []).some((v) => variantPattern('fr', v).test('Vendre sur la place de marché')),
    ).toBe(true);
  });

  it('gives the display mode that fills the screen and the full-screen button different names in every language', () => {
    for (const lang of languages) {
      const fill = normal(terms.displayModeFill?.[lang]?.use ?? '').toLowerCase();
      const full = normal(terms.fullscreen?.[lang]?.use ?? '').toLowerCase();
      const modeText = texts[lang].find(([key]) => key === 'player.modes.fill')?.[1].toLowerCase() ?? '';
      const buttonText = texts[lang].find(([key]) => key === 'player.fullscreen')?.[1].toLowerCase() ?? '';
      expect(modeText, lang).toContain(fill);
      expect(buttonText, lang).toContain(full);
      expect(modeText.includes(full), `${lang}: the fill mode says "${full}"`).toBe(false);
      expect(buttonText.includes(fill), `${lang}: the full-screen button says "${fill}"`).toBe(false);
    }
  });
});
