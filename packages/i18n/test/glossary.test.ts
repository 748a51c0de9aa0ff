// One term per thing per language: the glossary beside the catalogues names, for each product term, the
// word each language uses and the variants it must not use ("Retrait" and "Convertir en argent" for one cash-out).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
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

/**
 * The e-mails the account service sends, rendered in each language (one screen, and several, down and recovered;
 * a proposal waiting and decided, for no screen, one and several).
 */
interface Mail {
  subject: string;
  text: string;
}
type MailMaker = (locale: Language, opts: Record<string, unknown>) => Mail;
async function mails(): Promise<Record<Language, Mail[]>> {
  // the account service's mail texts are domain code with no driver: read in place (a path, not a package import)
  const repo = [process.cwd(), join(process.cwd(), '../..')].find((dir) => existsSync(join(dir, 'services/account')));
  const domain = join(repo ?? '', 'services/account/src/domain');
  const templates = (await import(/* @vite-ignore */ `${domain}/mail-templates.ts`)) as Record<string, MailMaker>;
  const alerts = (await import(/* @vite-ignore */ `${domain}/alert-mail.ts`)) as Record<string, MailMaker>;
  const proposals = (await import(/* @vite-ignore */ `${domain}/proposal-mail.ts`)) as Record<string, MailMaker>;
  const person = {
    email: 'hanako@example.com',
    firstName: '花子',
    lastName: '山田',
    publicUrl: 'https://pagecast.test',
  };
  const screen = (n: number, state: string) => ({
    screenId: `s${n}`,
    screenName: `Lobby ${n}`,
    state,
    at: '2026-12-06T03:47:00.000Z',
    timeZone: 'Asia/Tokyo',
  });
  const alert = (down: number, recovered: number) => ({
    alertId: 'a1',
    ownerId: 'u1',
    down: Array.from({ length: down }, (_, i) => screen(i, 'offline')),
    recovered: Array.from({ length: recovered }, (_, i) => screen(i + 10, 'frozen')),
    downTotal: down,
    recoveredTotal: recovered,
  });
  const proposal = { proposalId: 'p1', workspaceId: 'w1', proposedBy: 'u2', decidedBy: 'u3' };
  const proposalPeople = {
    to: person,
    publicUrl: person.publicUrl,
    proposer: { email: 'taro@example.com', firstName: '太郎', lastName: '鈴木' },
    workspaceName: 'Lobby',
  };
  const out = {} as Record<Language, Mail[]>;
  for (const lang of languages) {
    out[lang] = [
      (templates.verificationMail as MailMaker)(lang, { ...person, token: 't' }),
      (templates.passwordResetMail as MailMaker)(lang, { ...person, token: 't' }),
      (alerts.screenAlertMail as MailMaker)(lang, { ...person, alert: alert(1, 0) }),
      (alerts.screenAlertMail as MailMaker)(lang, { ...person, alert: alert(3, 2) }),
      ...[0, 1, 3].flatMap((screensTotal) => [
        (proposals.proposalCreatedMail as MailMaker)(lang, {
          ...proposalPeople,
          proposal: { ...proposal, kind: 'bulk', screensTotal },
        }),
        ...(['approved', 'rejected'] as const).map((outcome) =>
          (proposals.proposalDecidedMail as MailMaker)(lang, {
            ...proposalPeople,
            decider: null,
            decision: { ...proposal, kind: 'update-screen', screensTotal, outcome, reason: 'Trop sombre' },
          }),
        ),
      ]),
    ];
  }
  return out;
}

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

  it('finds no forbidden variant in the e-mails either (画面 for スクリーン in the alert e-mails once)', async () => {
    const found: string[] = [];
    const byLang = await mails();
    expect(byLang.ja[2]?.subject).toContain('スクリーン');
    for (const [term, byLanguage] of Object.entries(terms)) {
      for (const lang of languages) {
        for (const variant of byLanguage[lang]?.avoid ?? []) {
          const pattern = variantPattern(lang, variant);
          for (const mail of byLang[lang]) {
            const hit = pattern.exec(normal(`${mail.subject}\n${mail.text}`));
            if (hit) found.push(`${lang}: "${mail.subject}" says "${hit[0]}" for ${term}`);
          }
        }
      }
    }
    expect(found).toEqual([]);
    // the variants catch the old wording
    expect(variantPattern('ja', terms.screen?.ja?.avoid?.[0] ?? '').test('3台の画面に問題があります')).toBe(true);
    expect(variantPattern('ja', terms.earned?.ja?.avoid?.[0] ?? '').test('今月の収益')).toBe(true);
  });

  it('sets French high punctuation after a narrow no-break space, in the catalogue and the e-mails', async () => {
    // ':', ';', '!', '?' and '»' take U+202F before them, '«' after it; a plain or a wide no-break space is wrong
    const wrong = /[ \u00a0][:;!?»]|«[ \u00a0]/u;
    const byLang = await mails();
    const found = [
      ...texts.fr.filter(([, text]) => wrong.test(text)).map(([key, text]) => `${key}: ${text}`),
      ...byLang.fr.filter((m) => wrong.test(`${m.subject}\n${m.text}`)).map((m) => `e-mail: ${m.subject}`),
    ];
    expect(found).toEqual([]);
    expect(wrong.test('Essai : 30 jours')).toBe(true);
    expect(wrong.test('Essai\u202f: 30 jours')).toBe(false);
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
