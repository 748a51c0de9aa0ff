// Disaster alerts: where a screen is (a JMA area code), the member's alert rules (which reports take over which
// screens, with which words, for how long), and what an alert takeover carries to the display. The reports
// themselves come from the Japan Meteorological Agency's feed (packages/alerts parses them); the screens service
// matches them against these rules and places.
import { z } from 'zod';
import { defineRoutes } from '../route-def';
import { Id } from '../validation';

/**
 * Where a screen (or a group) is: a JMA 市町村等（気象警報等） code (7 digits) and, when it is near the coast, the
 * 津波予報区 code of its coast (3 digits); null = nowhere set (no alert concerns it). The server checks both against
 * JMA's code tables (ALERT_PLACE_UNKNOWN).
 */
export const ScreenPlace = z
  .object({
    cityCode: z.string().regex(/^\d{7}$/, 'validation.placeInvalid'),
    tsunamiRegion: z
      .string()
      .regex(/^\d{3}$/, 'validation.placeInvalid')
      .nullable(),
  })
  .nullable();
export type ScreenPlace = z.infer<typeof ScreenPlace>;

/** JMA seismic intensity (震度), ordered from 1 to 7; '5-' is 5弱, '5+' 5強. */
export const AlertIntensity = z.enum(['1', '2', '3', '4', '5-', '5+', '6-', '6+', '7']);
export type AlertIntensity = z.infer<typeof AlertIntensity>;
export const alertIntensityRank = (i: AlertIntensity) => AlertIntensity.options.indexOf(i) + 1;
/** The languages an alert speaks on a screen, in the order it shows them (Japanese first, then the visitors'). */
export const ALERT_LANGUAGES = ['ja', 'en', 'zh-Hans', 'ko'] as const;
export type AlertLanguage = (typeof ALERT_LANGUAGES)[number];
export const ALERT_TITLE_MAX = 80;
export const ALERT_BODY_MAX = 300;
/** A rule's takeover lasts this long unless the report says how long it is valid (the hour). */
export const ALERT_MINUTES_DEFAULT = 60;
export const ALERT_MINUTES_MAX = 24 * 60;

const AlertText = z.object({
  title: z.string().trim().min(1, 'validation.takeoverTitleRequired').max(ALERT_TITLE_MAX),
  body: z.string().trim().max(ALERT_BODY_MAX).default(''),
});
/** The words a rule shows, in each of the four languages (the report's facts are added by the display). */
export const AlertTexts = z.object({ ja: AlertText, en: AlertText, 'zh-Hans': AlertText, ko: AlertText });
export type AlertTexts = z.infer<typeof AlertTexts>;

const RuleBase = {
  enabled: z.boolean(),
  texts: AlertTexts,
  /**
   * A file of the member's (or licensed) shown full screen instead of the texts, the report's facts in a band over
   * it; null: the texts. Checked as a file takeover's (FILE_NOT_FOUND); deleted since, the alert shows the texts.
   */
  fileId: Id.nullable().default(null),
  minutes: z.number().int().min(1).max(ALERT_MINUTES_MAX),
};
export const AlertRules = z.object({
  /** an earthquake whose intensity at the screen's place is at least `minIntensity` */
  earthquake: z.object({ ...RuleBase, minIntensity: AlertIntensity }),
  /** a tsunami warning (or only a major one) for the screen's coast */
  tsunami: z.object({ ...RuleBase, minGrade: z.enum(['warning', 'major-warning']) }),
  /** an emergency weather warning (特別警報) for the screen's municipality */
  emergencyWarning: z.object(RuleBase),
  /** 訓練 and 試験 reports take over too (with a 「訓練」 banner); off: they never do */
  drills: z.boolean(),
});
export type AlertRules = z.infer<typeof AlertRules>;

/**
 * The defaults: tsunami and 特別警報 on (the duty), earthquakes on from 震度5弱 (where JMA's scale begins to
 * describe damage and people need to act; 震度4 happens several times a month somewhere in Japan and would interrupt
 * a screen's business for a shaking felt but harmless; a member may lower it to 4 as commercial signage does),
 * drills off, an hour each.
 */
export const defaultAlertRules: AlertRules = {
  earthquake: {
    enabled: true,
    minIntensity: '5-',
    minutes: ALERT_MINUTES_DEFAULT,
    fileId: null,
    texts: {
      ja: {
        title: '地震が発生しました',
        body: '落ち着いて身の安全を確保してください。揺れが収まるまで、窓や棚から離れてください。',
      },
      en: {
        title: 'Earthquake',
        body: 'Stay calm and protect yourself. Keep away from windows and shelves until the shaking stops.',
      },
      'zh-Hans': { title: '发生地震', body: '请保持冷静，确保自身安全。在摇晃停止前，请远离窗户和货架。' },
      ko: {
        title: '지진 발생',
        body: '침착하게 몸을 보호하십시오. 흔들림이 멈출 때까지 창문과 선반에서 떨어지십시오.',
      },
    },
  },
  tsunami: {
    enabled: true,
    minGrade: 'warning',
    minutes: ALERT_MINUTES_DEFAULT,
    fileId: null,
    texts: {
      ja: { title: '津波警報', body: 'ただちに海岸から離れ、高台や避難ビルへ避難してください。' },
      en: { title: 'Tsunami warning', body: 'Leave the coast now and move to high ground or an evacuation building.' },
      'zh-Hans': { title: '海啸警报', body: '请立即远离海岸，前往高处或避难建筑。' },
      ko: { title: '쓰나미 경보', body: '즉시 해안에서 벗어나 높은 곳이나 대피 건물로 대피하십시오.' },
    },
  },
  emergencyWarning: {
    enabled: true,
    minutes: ALERT_MINUTES_DEFAULT,
    fileId: null,
    texts: {
      ja: { title: '特別警報', body: '命を守る行動をとってください。自治体の避難情報に従ってください。' },
      en: {
        title: 'Emergency warning',
        body: 'Take action to save your life. Follow the evacuation instructions of the local authority.',
      },
      'zh-Hans': { title: '特别警报', body: '请立即采取保护生命的行动，并遵从当地政府的避难指示。' },
      ko: { title: '특별경보', body: '생명을 지키는 행동을 하십시오. 지자체의 대피 정보에 따르십시오.' },
    },
  },
  drills: false,
};

/**
 * What an alert takeover shows (a takeover's content of kind 'alert', started by the feed, never by a member): the
 * report's facts, as codes and names the display words in each language, and the rule's texts.
 */
export const TakeoverAlert = z.object({
  kind: z.literal('alert'),
  /** `<source>:<eventId>:<serial>:<infoType>` of the report that started (or last replaced) it */
  reportId: z.string(),
  eventId: z.string(),
  /** the report's serial within its event: an older one never replaces a newer */
  serial: z.number().int(),
  alertKind: z.enum(['earthquake', 'tsunami', 'weather']),
  /** 訓練 or 試験: the display shows a 「訓練」 banner */
  drill: z.boolean(),
  reportedAt: z.string(),
  /** the report's headline (ja), for the log and the e-mail */
  headline: z.string(),
  /** the place it concerns: the screen's municipality or coast (ja name and romaji) */
  area: z.object({ code: z.string(), name: z.string(), romaji: z.string() }),
  intensity: AlertIntensity.optional(),
  tsunamiGrade: z.enum(['major-warning', 'warning']).optional(),
  /** the names (ja) of the emergency warnings in force */
  warnings: z.array(z.string()).optional(),
  hypocentre: z.string().optional(),
  magnitude: z.number().optional(),
  texts: AlertTexts,
  /** the rule's file, shown full screen under a band of the facts (absent: the texts; also when it was deleted) */
  fileId: z.string().optional(),
});
export type TakeoverAlert = z.infer<typeof TakeoverAlert>;

export const screenAlertRoutes = defineRoutes([
  {
    id: 'getAlertRules',
    method: 'get',
    path: '/api/screens/alert-rules',
    service: 'screens',
    auth: 'session',
    action: 'screens.read',
    summary: "The member's disaster alert rules (the defaults until saved)",
    response: AlertRules,
  },
  {
    id: 'setAlertRules',
    method: 'put',
    path: '/api/screens/alert-rules',
    service: 'screens',
    auth: 'session',
    action: 'screens.manage',
    summary:
      "Replace the member's disaster alert rules. VALIDATION; FILE_NOT_FOUND (a rule's file the member may not use)",
    body: AlertRules,
    response: AlertRules,
  },
]);
