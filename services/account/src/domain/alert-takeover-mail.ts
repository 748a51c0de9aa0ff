// The e-mail telling a member that a disaster report took over their screens, or that the takeover ended
// (screens.takeover.alerted.v1): what the report said (kind, intensity or grade, places), which screens, in the
// member's language; the report's own headline is quoted in Japanese as JMA wrote it.
import type { EventData } from '@pagecast/contracts';
import type { Locale } from './locale';
import type { MailContent, MailRecipient } from './mail-templates';
import { salutation } from './names';

type Notice = EventData<'screens.takeover.alerted.v1'>;

interface Texts {
  prefix: string;
  drill: string;
  intensity: (i: string) => string;
  earthquake: (intensity: string | null) => string;
  tsunami: (major: boolean) => string;
  weather: (names: string) => string;
  started: (what: string, n: number) => string;
  ended: (what: string, n: number) => string;
  corrected: (what: string, n: number) => string;
  places: string;
  screens: string;
  more: (n: number) => string;
  headline: string;
  action: string;
  footer: string;
}

const intensityOf = (i: string, lower: string, upper: string) => i.replace('-', lower).replace('+', upper);

const texts: Record<Locale, Texts> = {
  ja: {
    prefix: '【Pagecast】',
    drill: '【訓練】',
    intensity: (i) => `震度${intensityOf(i, '弱', '強')}`,
    earthquake: (i) => (i ? `地震（${i}）` : '地震'),
    tsunami: (major) => (major ? '大津波警報' : '津波警報'),
    weather: (names) => (names ? `特別警報（${names}）` : '特別警報'),
    started: (what, n) => `${what}：${n}台のスクリーンに緊急表示しました`,
    ended: (what, n) => `${what}：${n}台のスクリーンの緊急表示を終了しました`,
    corrected: (what, n) => `${what}：訂正報により${n}台のスクリーンの緊急表示を更新しました`,
    places: '対象地域',
    screens: 'スクリーン',
    more: (n) => `ほか${n}台`,
    headline: '気象庁の発表',
    action: '緊急表示と記録を見る',
    footer: '災害アラートの設定は、フリート管理のページで変更できます。',
  },
  en: {
    prefix: '[Pagecast] ',
    drill: '[DRILL] ',
    intensity: (i) => `seismic intensity ${intensityOf(i, ' lower', ' upper')}`,
    earthquake: (i) => (i ? `Earthquake (${i})` : 'Earthquake'),
    tsunami: (major) => (major ? 'Major tsunami warning' : 'Tsunami warning'),
    weather: () => 'Emergency warning',
    started: (what, n) => `${what}: ${n === 1 ? 'your screen shows it' : `${n} of your screens show it`}`,
    ended: (what, n) => `${what}: ended on ${n === 1 ? 'your screen' : `${n} of your screens`}`,
    corrected: (what, n) => `${what}: corrected report, updated on ${n === 1 ? 'your screen' : `${n} of your screens`}`,
    places: 'Places',
    screens: 'Screens',
    more: (n) => `…and ${n} more`,
    headline: 'JMA announced (in Japanese)',
    action: 'See the takeovers and their log',
    footer: 'You can change the disaster alert settings on the fleet page.',
  },
  fr: {
    prefix: '[Pagecast] ',
    drill: '[EXERCICE] ',
    intensity: (i) => `intensité ${intensityOf(i, ' faible', ' forte')}`,
    earthquake: (i) => (i ? `Séisme (${i})` : 'Séisme'),
    tsunami: (major) => (major ? 'Alerte majeure au tsunami' : 'Alerte au tsunami'),
    weather: () => 'Alerte d’urgence',
    started: (what, n) => `${what}\u202f: ${n === 1 ? 'votre écran l’affiche' : `${n} de vos écrans l’affichent`}`,
    ended: (what, n) => `${what}\u202f: terminée sur ${n === 1 ? 'votre écran' : `${n} de vos écrans`}`,
    corrected: (what, n) =>
      `${what}\u202f: bulletin rectifié, mis à jour sur ${n === 1 ? 'votre écran' : `${n} de vos écrans`}`,
    places: 'Zones',
    screens: 'Écrans',
    more: (n) => `… et ${n} de plus`,
    headline: 'Annonce de la JMA (en japonais)',
    action: 'Voir les prises de contrôle et leur journal',
    footer: 'Vous pouvez modifier les réglages des alertes de catastrophe sur la page de gestion de la flotte.',
  },
  it: {
    prefix: '[Pagecast] ',
    drill: '[ESERCITAZIONE] ',
    intensity: (i) => `intensità ${intensityOf(i, ' debole', ' forte')}`,
    earthquake: (i) => (i ? `Terremoto (${i})` : 'Terremoto'),
    tsunami: (major) => (major ? 'Allerta grave tsunami' : 'Allerta tsunami'),
    weather: () => 'Allerta di emergenza',
    started: (what, n) => `${what}: ${n === 1 ? 'il tuo schermo la mostra' : `${n} dei tuoi schermi la mostrano`}`,
    ended: (what, n) => `${what}: terminata su ${n === 1 ? 'il tuo schermo' : `${n} dei tuoi schermi`}`,
    corrected: (what, n) =>
      `${what}: bollettino rettificato, aggiornata su ${n === 1 ? 'il tuo schermo' : `${n} dei tuoi schermi`}`,
    places: 'Zone',
    screens: 'Schermi',
    more: (n) => `…e altri ${n}`,
    headline: 'Annuncio della JMA (in giapponese)',
    action: 'Vedi le sostituzioni e il loro registro',
    footer: 'Puoi modificare le impostazioni delle allerte per calamità nella pagina di gestione degli schermi.',
  },
};

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function alertTakeoverMail(
  locale: Locale,
  opts: MailRecipient & { publicUrl: string; notice: Notice },
): MailContent {
  const t = texts[locale];
  const { notice } = opts;
  const what =
    notice.alertKind === 'earthquake'
      ? t.earthquake(notice.intensity ? t.intensity(notice.intensity) : null)
      : notice.alertKind === 'tsunami'
        ? t.tsunami(notice.tsunamiGrade === 'major-warning')
        : t.weather((notice.warnings ?? []).join('・'));
  const n = notice.screensTotal;
  const subject = `${t.prefix}${notice.drill ? t.drill : ''}${t[notice.action](what, n)}`;
  const url = new URL('/screens/fleet', opts.publicUrl).toString();
  const screens = notice.screens.map((s) => s.screenName);
  const more = n > screens.length ? t.more(n - screens.length) : null;
  const greeting = salutation(locale, opts);
  const text = [
    greeting,
    '',
    subject.slice(t.prefix.length),
    '',
    `${t.places}: ${notice.areas.join(', ')}`,
    `${t.screens}:`,
    ...screens.map((s) => `- ${s}`),
    ...(more ? [more] : []),
    '',
    `${t.headline}: ${notice.headline}`,
    '',
    `${t.action}: ${url}`,
    '',
    t.footer,
    '',
    'Pagecast',
  ].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif;line-height:1.6;color:#222">',
    `<p>${escapeHtml(greeting)}</p>`,
    `<p><strong>${escapeHtml(subject.slice(t.prefix.length))}</strong></p>`,
    `<p>${escapeHtml(t.places)}: ${escapeHtml(notice.areas.join(', '))}</p>`,
    `<p>${escapeHtml(t.screens)}:</p><ul>${screens.map((s) => `<li>${escapeHtml(s)}</li>`).join('')}</ul>`,
    more ? `<p>${escapeHtml(more)}</p>` : '',
    `<p>${escapeHtml(t.headline)}: <span lang="ja">${escapeHtml(notice.headline)}</span></p>`,
    `<p><a href="${escapeHtml(url)}" style="display:inline-block;padding:10px 18px;background:#2563eb;color:#fff;text-decoration:none;border-radius:6px">${escapeHtml(t.action)}</a></p>`,
    `<p style="font-size:13px;color:#555">${escapeHtml(t.footer)}</p>`,
    '<p>Pagecast</p></body></html>',
  ].join('\n');
  return { subject, text, html };
}
