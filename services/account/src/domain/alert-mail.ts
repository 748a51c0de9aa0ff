// The e-mail telling a member about their screens (screens.alert.raised.v1): screens that went wrong past
// their threshold and screens that recovered, in the member's language, with plural forms, each time on the screen's
// own wall clock (the zone's name given), and a link to the screen or to the filtered fleet view.
import type { EventData, IncidentState } from '@pagecast/contracts';
import type { Locale } from './locale';
import type { MailContent, MailRecipient } from './mail-templates';
import { salutation } from './names';

type Alert = EventData<'screens.alert.raised.v1'>;
type Plural = 'one' | 'other';

interface AlertTexts {
  prefix: string;
  /** subject parts by plural form of the count */
  down: Record<Plural, (n: number) => string>;
  recovered: Record<Plural, (n: number) => string>;
  join: string;
  /** the lines above each list */
  downIntro: Record<Plural, (n: number) => string>;
  recoveredIntro: Record<Plural, (n: number) => string>;
  since: (when: string) => string;
  back: (when: string) => string;
  more: Record<Plural, (n: number) => string>;
  state: Record<IncidentState, string>;
  actionOne: string;
  actionMany: string;
  /** between the action and its link ("See the screen: https://…"); French sets a narrow no-break space before ':' */
  colon: string;
  footer: string;
}

const same = (f: (n: number) => string): Record<Plural, (n: number) => string> => ({ one: f, other: f });

const texts: Record<Locale, AlertTexts> = {
  ja: {
    prefix: '【Pagecast】',
    down: same((n) => `${n}台のスクリーンに問題があります`),
    recovered: same((n) => `${n}台のスクリーンが復旧しました`),
    join: '、',
    downIntro: same((n) => `次の${n}台のスクリーンに問題が続いています。`),
    recoveredIntro: same((n) => `次の${n}台のスクリーンが復旧しました。`),
    since: (when) => `${when}から`,
    back: (when) => `${when}に復旧`,
    more: same((n) => `ほか${n}台`),
    state: { offline: 'オフライン', broken: '画像エラー', frozen: '表示が停止', wrong: '表示内容の誤り' },
    actionOne: 'スクリーンの状態を見る',
    actionMany: 'スクリーンの状態を見る',
    colon: ': ',
    footer: 'このメールは、スクリーンの問題が設定した時間を超えて続いたとき、または復旧したときにお送りしています。',
  },
  en: {
    prefix: '[Pagecast] ',
    down: { one: (n) => `${n} screen needs attention`, other: (n) => `${n} screens need attention` },
    recovered: { one: (n) => `${n} screen recovered`, other: (n) => `${n} screens recovered` },
    join: ', ',
    downIntro: {
      one: () => 'This screen has had a problem for longer than its alert threshold:',
      other: (n) => `These ${n} screens have had a problem for longer than their alert threshold:`,
    },
    recoveredIntro: {
      one: () => 'This screen is back to normal:',
      other: (n) => `These ${n} screens are back to normal:`,
    },
    since: (when) => `since ${when}`,
    back: (when) => `back at ${when}`,
    more: { one: (n) => `…and ${n} more screen`, other: (n) => `…and ${n} more screens` },
    state: { offline: 'offline', broken: 'broken image', frozen: 'frozen', wrong: 'wrong content' },
    actionOne: 'See the screen',
    actionMany: 'See the screens',
    colon: ': ',
    footer:
      'You receive this e-mail when a screen has a problem for longer than the threshold you set, and when it recovers.',
  },
  fr: {
    prefix: '[Pagecast] ',
    down: { one: (n) => `${n} écran a un problème`, other: (n) => `${n} écrans ont un problème` },
    recovered: { one: (n) => `${n} écran rétabli`, other: (n) => `${n} écrans rétablis` },
    join: ', ',
    downIntro: {
      one: () => 'Cet écran a un problème depuis plus longtemps que son seuil d’alerte :',
      other: (n) => `Ces ${n} écrans ont un problème depuis plus longtemps que leur seuil d’alerte :`,
    },
    recoveredIntro: {
      one: () => 'Cet écran fonctionne de nouveau :',
      other: (n) => `Ces ${n} écrans fonctionnent de nouveau :`,
    },
    since: (when) => `depuis le ${when}`,
    back: (when) => `rétabli le ${when}`,
    more: { one: (n) => `… et ${n} autre écran`, other: (n) => `… et ${n} autres écrans` },
    state: { offline: 'hors ligne', broken: 'image en erreur', frozen: 'image figée', wrong: 'mauvais contenu' },
    actionOne: 'Voir l’écran',
    actionMany: 'Voir les écrans',
    colon: '\u202f: ',
    footer:
      'Vous recevez cet e-mail quand un écran a un problème plus longtemps que le seuil que vous avez choisi, et quand il est rétabli.',
  },
  it: {
    prefix: '[Pagecast] ',
    down: { one: (n) => `${n} schermo ha un problema`, other: (n) => `${n} schermi hanno un problema` },
    recovered: { one: (n) => `${n} schermo ripristinato`, other: (n) => `${n} schermi ripristinati` },
    join: ', ',
    downIntro: {
      one: () => 'Questo schermo ha un problema da più tempo della sua soglia di avviso:',
      other: (n) => `Questi ${n} schermi hanno un problema da più tempo della loro soglia di avviso:`,
    },
    recoveredIntro: {
      one: () => 'Questo schermo funziona di nuovo:',
      other: (n) => `Questi ${n} schermi funzionano di nuovo:`,
    },
    since: (when) => `dal ${when}`,
    back: (when) => `ripristinato il ${when}`,
    more: { one: (n) => `…e ${n} altro schermo`, other: (n) => `…e altri ${n} schermi` },
    state: {
      offline: 'offline',
      broken: 'immagine non valida',
      frozen: 'immagine bloccata',
      wrong: 'contenuto errato',
    },
    actionOne: 'Vedi lo schermo',
    actionMany: 'Vedi gli schermi',
    colon: ': ',
    footer:
      'Ricevi questa e-mail quando uno schermo ha un problema più a lungo della soglia impostata, e quando si ripristina.',
  },
};

/** The language's plural category of `n` (Intl: French takes 0 and 1 as singular, Japanese has one form). */
const pluralOf = (locale: Locale, n: number): Plural =>
  new Intl.PluralRules(locale).select(n) === 'one' ? 'one' : 'other';

/** A time as the screen's wall clock shows it, written in the member's language, with the zone. */
export function wallTime(locale: Locale, iso: string, timeZone: string): string {
  const format = (zone: string) =>
    new Intl.DateTimeFormat(locale, {
      timeZone: zone,
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      timeZoneName: 'short',
    }).format(new Date(iso));
  try {
    return format(timeZone);
  } catch {
    return format('UTC'); // a zone this runtime does not know
  }
}

/**
 * Where the e-mail leads: one screen → that screen's health; several → the fleet view, filtered by the state when
 * every screen listed as down shares it.
 */
export function alertLink(alert: Alert, publicUrl: string): { url: string; single: boolean } {
  const listed = new Set([...alert.down, ...alert.recovered].map((s) => s.screenId));
  const url = new URL('/screens/health', publicUrl);
  const single = listed.size === 1 && alert.downTotal <= 1 && alert.recoveredTotal <= 1;
  if (single) {
    url.searchParams.set('screen', [...listed][0] as string);
    return { url: url.toString(), single };
  }
  const states = new Set(alert.down.map((s) => s.state));
  const [only] = states;
  if (states.size === 1 && only && alert.down.length === alert.downTotal) url.searchParams.set('state', only);
  return { url: url.toString(), single };
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function screenAlertMail(
  locale: Locale,
  opts: MailRecipient & { publicUrl: string; alert: Alert },
): MailContent {
  const t = texts[locale];
  const { alert } = opts;
  const plural = (n: number) => pluralOf(locale, n);
  const subjectParts = [
    ...(alert.downTotal > 0 ? [t.down[plural(alert.downTotal)](alert.downTotal)] : []),
    ...(alert.recoveredTotal > 0 ? [t.recovered[plural(alert.recoveredTotal)](alert.recoveredTotal)] : []),
  ];
  const subject = `${t.prefix}${subjectParts.join(t.join)}`;
  const { url, single } = alertLink(alert, opts.publicUrl);
  const greeting = salutation(locale, opts);

  type Section = { intro: string; lines: string[]; more: string | null };
  const sections: Section[] = [];
  const section = (
    list: Alert['down'],
    total: number,
    intro: AlertTexts['downIntro'],
    when: (w: string) => string,
  ): Section => ({
    intro: intro[plural(total)](total),
    lines: list.map((s) => `${s.screenName} — ${t.state[s.state]} — ${when(wallTime(locale, s.at, s.timeZone))}`),
    more: total > list.length ? t.more[plural(total - list.length)](total - list.length) : null,
  });
  if (alert.downTotal > 0) sections.push(section(alert.down, alert.downTotal, t.downIntro, t.since));
  if (alert.recoveredTotal > 0) {
    sections.push(section(alert.recovered, alert.recoveredTotal, t.recoveredIntro, t.back));
  }
  const action = single ? t.actionOne : t.actionMany;

  const text = [
    greeting,
    '',
    ...sections.flatMap((s) => [s.intro, ...s.lines.map((l) => `- ${l}`), ...(s.more ? [s.more] : []), '']),
    `${action}${t.colon}${url}`,
    '',
    t.footer,
    '',
    'Pagecast',
  ].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif;line-height:1.6;color:#222">',
    `<p>${escapeHtml(greeting)}</p>`,
    ...sections.map(
      (s) =>
        `<p>${escapeHtml(s.intro)}</p><ul>${s.lines.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul>` +
        (s.more ? `<p>${escapeHtml(s.more)}</p>` : ''),
    ),
    `<p><a href="${escapeHtml(url)}" style="display:inline-block;padding:10px 18px;background:#2563eb;color:#fff;text-decoration:none;border-radius:6px">${escapeHtml(action)}</a></p>`,
    `<p style="font-size:13px;color:#555">${escapeHtml(url)}</p>`,
    `<p style="font-size:13px;color:#555">${escapeHtml(t.footer)}</p>`,
    '<p>Pagecast</p></body></html>',
  ].join('\n');
  return { subject, text, html };
}
