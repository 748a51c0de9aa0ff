// Which screens a disaster report takes over, as plain rules: the member's rule for the report's kind, the report's
// facts at the screen's place (alerts' concernsPlace: the earthquake's intensity there, the tsunami grade of its coast;
// the emergency warnings in force in its municipality), and the takeover content the display words.
import { type AlertReport, cityByCode, concernsPlace, tsunamiRegion } from '@pagecast/alerts';
import { type AlertRules, alertIntensityRank, type ScreenPlace, type TakeoverAlert } from '@pagecast/contracts';

export type AlertKind = TakeoverAlert['alertKind'];

/** Drills and tests (訓練, 試験) take over only under a drill rule. */
export const isDrill = (report: Pick<AlertReport, 'status'>) => report.status !== 'actual';

export const alertKindOf = (report: Pick<AlertReport, 'kind'>): AlertKind | null =>
  report.kind === 'other' ? null : report.kind;

/** The rule of a kind of report. */
export const ruleOf = (rules: AlertRules, kind: AlertKind) =>
  kind === 'earthquake' ? rules.earthquake : kind === 'tsunami' ? rules.tsunami : rules.emergencyWarning;

/** The emergency warnings (特別警報) issued or continued in this municipality by the report (ja names). */
export function emergencyWarningsAt(report: AlertReport, cityCode: string): string[] {
  const area = report.weather?.areas.find((a) => a.code === cityCode);
  return (area?.warnings ?? []).filter((w) => w.level === 'emergency' && w.state !== 'lifted').map((w) => w.name);
}

export interface AlertMatch {
  content: TakeoverAlert;
  minutes: number;
}

/**
 * What this report shows on a screen at this place under these rules, or null (no rule on, the report does not
 * concern the place, or not strongly enough; a drill without a drill rule).
 */
export function alertMatch(report: AlertReport, place: NonNullable<ScreenPlace>, rules: AlertRules): AlertMatch | null {
  const kind = alertKindOf(report);
  if (!kind || report.infoType === 'cancelled') return null;
  if (isDrill(report) && !rules.drills) return null;
  const rule = ruleOf(rules, kind);
  if (!rule.enabled) return null;
  const city = cityByCode(place.cityCode);
  if (!city) return null;
  const base = {
    kind: 'alert' as const,
    reportId: report.reportId,
    eventId: report.eventId,
    serial: report.serial,
    alertKind: kind,
    drill: isDrill(report),
    reportedAt: report.reportedAt,
    headline: report.headline,
    area: { code: city.code, name: city.name, romaji: city.romaji },
    texts: rule.texts,
  };
  if (kind === 'weather') {
    // CAP marks no 特別警報: its most severe weather alerts stand for them
    const warnings =
      report.source === 'cap'
        ? report.capSeverity === 'Extreme'
          ? (concernsPlace(report, place)?.weather ?? [])
          : []
        : emergencyWarningsAt(report, place.cityCode);
    return warnings.length > 0 ? { content: { ...base, warnings }, minutes: rule.minutes } : null;
  }
  const concern = concernsPlace(report, { cityCode: place.cityCode, tsunamiRegion: place.tsunamiRegion });
  if (kind === 'earthquake') {
    const intensity = concern?.intensity;
    if (!intensity || alertIntensityRank(intensity) < alertIntensityRank(rules.earthquake.minIntensity)) return null;
    const quake = report.earthquake;
    return {
      content: {
        ...base,
        intensity,
        ...(quake?.hypocentreName ? { hypocentre: quake.hypocentreName } : {}),
        ...(quake?.magnitude !== undefined && Number.isFinite(quake.magnitude) ? { magnitude: quake.magnitude } : {}),
      },
      minutes: rule.minutes,
    };
  }
  const grade = concern?.tsunami;
  const wanted = rules.tsunami.minGrade === 'major-warning' ? ['major-warning'] : ['major-warning', 'warning'];
  if (!grade || !place.tsunamiRegion || !wanted.includes(grade)) return null;
  const region = tsunamiRegion(place.tsunamiRegion);
  return {
    content: {
      ...base,
      area: region ? { code: region.code, name: region.name, romaji: region.romaji } : base.area,
      tsunamiGrade: grade as 'major-warning' | 'warning',
    },
    minutes: rule.minutes,
  };
}

/** Screens showing the same facts share one takeover: the key of what differs between screens. */
export const factsKey = (c: TakeoverAlert) =>
  [c.alertKind, c.area.code, c.intensity ?? '', c.tsunamiGrade ?? '', (c.warnings ?? []).join('+')].join('|');

/**
 * When an alert takeover ends: the report's validity when it gives one, else the rule's minutes from when the report
 * is read (a feed or stream that delivers late still shows it for its time; a replayed old sample shows as a demonstration
 * would want). A validity already past takes nothing over. The same report read twice is stopped before this, by its id.
 */
export function alertEndsAt(report: Pick<AlertReport, 'validUntil'>, minutes: number, now: number): number {
  const valid = report.validUntil ? Date.parse(report.validUntil) : Number.NaN;
  if (Number.isFinite(valid)) return valid;
  return now + minutes * 60_000;
}
