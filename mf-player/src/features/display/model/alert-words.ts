// What an alert takeover says of the report's facts, in the four languages a screen speaks to passers-by (Japanese
// first, then English, Simplified Chinese and Korean: the visitors Japan's disaster guidance writes for), whatever
// the app's language: the facts come as codes (intensity, grade) and names (ja, romaji), worded here.
import type { AlertLanguage, TakeoverAlert } from '@pagecast/contracts';

type Intensity = NonNullable<TakeoverAlert['intensity']>;

const intensityWords: Record<AlertLanguage, (i: Intensity) => string> = {
  ja: (i) => `震度${i.replace('-', '弱').replace('+', '強')}`,
  en: (i) => `seismic intensity ${i.replace('-', ' lower').replace('+', ' upper')}`,
  'zh-Hans': (i) => `震度${i.replace('-', '弱').replace('+', '强')}`,
  ko: (i) => `진도 ${i.replace('-', '약').replace('+', '강')}`,
};

const drillWords: Record<AlertLanguage, string> = { ja: '訓練', en: 'DRILL', 'zh-Hans': '演习', ko: '훈련' };
export const drillBanner = (): string => ['「訓練」', drillWords.en, drillWords['zh-Hans'], drillWords.ko].join(' · ');

/** The place as each language reads it: the kanji name for Japanese and Chinese readers, romaji for the others. */
const placeName = (a: TakeoverAlert, lang: AlertLanguage) =>
  lang === 'ja' || lang === 'zh-Hans' ? a.area.name : a.area.romaji;

/** The report's facts in one language: where, how strong. */
export function alertFacts(a: TakeoverAlert, lang: AlertLanguage): string {
  const where = placeName(a, lang);
  if (a.alertKind === 'earthquake' && a.intensity) {
    const i = intensityWords[lang](a.intensity);
    return {
      ja: `${where}で${i}`,
      en: `${i.charAt(0).toUpperCase()}${i.slice(1)} in ${where}`,
      'zh-Hans': `${where}${i}`,
      ko: `${where} ${i}`,
    }[lang];
  }
  if (a.alertKind === 'tsunami') {
    const major = a.tsunamiGrade === 'major-warning';
    return {
      ja: `${where}に${major ? '大津波警報' : '津波警報'}`,
      en: `${major ? 'Major tsunami warning' : 'Tsunami warning'}: ${where}`,
      'zh-Hans': `${where}${major ? '大海啸警报' : '海啸警报'}`,
      ko: `${where} ${major ? '대형 쓰나미 경보' : '쓰나미 경보'}`,
    }[lang];
  }
  const names = (a.warnings ?? []).join('・');
  return {
    ja: `${where}に${names || '特別警報'}`,
    en: `Emergency warning: ${where}`,
    'zh-Hans': `${where}特别警报`,
    ko: `${where} 특별경보`,
  }[lang];
}

/** When the report was issued, on the screen's clock, in one language. */
export function alertTime(a: TakeoverAlert, lang: AlertLanguage, timeZone: string): string {
  const at = new Date(a.reportedAt);
  if (Number.isNaN(at.getTime())) return '';
  const time = new Intl.DateTimeFormat(lang, { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
    at,
  );
  return { ja: `${time} 発表`, en: `Issued ${time}`, 'zh-Hans': `${time} 发布`, ko: `${time} 발표` }[lang];
}
