import { AlertParseError } from './errors.ts';
import { INTENSITIES } from './intensity.ts';
import { alertReportSchema } from './schema.ts';
import type { AlertInfoType, AlertReport, AlertStatus, Intensity, TsunamiGrade } from './types.ts';
import { attr, child, children, parseXml, text, type XmlNode } from './xml.ts';

/** Control/Title → JMA's type code and what takeover it may cause; any other title is parsed as 'other'. */
const TYPES: Record<string, { type: string; kind: AlertReport['kind'] }> = {
  震度速報: { type: 'VXSE51', kind: 'earthquake' },
  震源に関する情報: { type: 'VXSE52', kind: 'earthquake' },
  '震源・震度に関する情報': { type: 'VXSE53', kind: 'earthquake' },
  '津波警報・注意報・予報a': { type: 'VTSE41', kind: 'tsunami' },
  津波情報a: { type: 'VTSE51', kind: 'tsunami' },
  '気象警報・注意報（Ｈ２７）': { type: 'VPWW54', kind: 'weather' },
  '気象特別警報・警報・注意報': { type: 'VPWW53', kind: 'other' },
};

const STATUS: Record<string, AlertStatus> = { 通常: 'actual', 訓練: 'exercise', 試験: 'test' };
const INFO_TYPE: Record<string, AlertInfoType> = { 発表: 'issued', 訂正: 'corrected', 取消: 'cancelled' };

/** 警報等情報要素／津波警報・注意報・予報 codes (JMA's TsunamiWarning table). */
const TSUNAMI_GRADE: Record<string, TsunamiGrade> = {
  '00': 'none',
  '50': 'none', // 警報解除
  '51': 'warning',
  '52': 'major-warning',
  '53': 'major-warning', // 大津波警報：発表 (newly issued)
  '60': 'none', // 津波注意報解除
  '62': 'advisory',
  '71': 'forecast',
  '72': 'forecast',
  '73': 'forecast',
};

const toIntensity = (s: string): Intensity | undefined =>
  (INTENSITIES as readonly string[]).includes(s) ? (s as Intensity) : undefined;

/**
 * The intensity of an area or city. A city whose stations have not reported yet carries the condition
 * 震度５弱以上未入電 instead of MaxInt: JMA's own meaning is "possibly 5- or more", so it counts as 5- (a takeover
 * for a place that may be shaking hard is the safe side).
 */
function intensityOf(node: XmlNode): Intensity | undefined {
  const max = toIntensity(text(child(node, 'MaxInt')));
  if (max) return max;
  return text(child(node, 'Condition')).includes('震度５弱以上未入電') ? '5-' : undefined;
}

/** JMA writes ISO 8601 with an offset; an empty or malformed time is left out rather than guessed. */
const isoOrUndefined = (s: string) =>
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?([+-]\d{2}:\d{2}|Z)$/.test(s) ? s : undefined;
// zod's ISO check (and the app's Date handling) want seconds, which JMA leaves out of some times
const withSeconds = (s: string) => s.replace(/T(\d{2}:\d{2})(?=[+\-Z])/, 'T$1:00');

function earthquakeOf(body: XmlNode | undefined): AlertReport['earthquake'] {
  const quake = child(body, 'Earthquake');
  const observation = child(body, 'Intensity', 'Observation');
  if (!quake && !observation) return undefined;
  const areas: NonNullable<AlertReport['earthquake']>['areas'] = [];
  const cities: NonNullable<AlertReport['earthquake']>['cities'] = [];
  for (const pref of children(observation, 'Pref')) {
    for (const area of children(pref, 'Area')) {
      const i = intensityOf(area);
      if (i) areas.push({ code: text(child(area, 'Code')), name: text(child(area, 'Name')), intensity: i });
      for (const city of children(area, 'City')) {
        const ci = intensityOf(city);
        if (ci) cities.push({ code: text(child(city, 'Code')), name: text(child(city, 'Name')), intensity: ci });
      }
    }
  }
  const hypocentre = child(quake, 'Hypocenter', 'Area');
  const magnitude = child(quake, 'Magnitude');
  // Magnitude is NaN when not yet determined (its condition then says 不明 or M8を超える巨大地震)
  const m = Number.parseFloat(text(magnitude));
  const origin = isoOrUndefined(text(child(quake, 'OriginTime')));
  const maxIntensity = toIntensity(text(child(observation, 'MaxInt')));
  return {
    ...(origin ? { originTime: withSeconds(origin) } : {}),
    ...(text(child(hypocentre, 'Name')) ? { hypocentreName: text(child(hypocentre, 'Name')) } : {}),
    ...(text(child(hypocentre, 'Code')) ? { hypocentreCode: text(child(hypocentre, 'Code')) } : {}),
    ...(Number.isFinite(m) ? { magnitude: m } : {}),
    ...(maxIntensity ? { maxIntensity } : {}),
    areas,
    cities,
  };
}

function tsunamiOf(body: XmlNode | undefined): AlertReport['tsunami'] {
  const forecast = child(body, 'Tsunami', 'Forecast');
  if (!forecast) return undefined;
  return {
    regions: children(forecast, 'Item').map((item) => {
      const kindCode = text(child(item, 'Category', 'Kind', 'Code'));
      const grade = TSUNAMI_GRADE[kindCode];
      if (!grade) throw new AlertParseError('ALERT_REPORT_INVALID', `unknown tsunami category ${kindCode}`);
      const first = child(item, 'FirstHeight');
      // an arrival is a time, or JMA's words when there is none yet (津波到達中と推測, 第１波の到達を確認)
      const arrival = text(child(first, 'ArrivalTime')) || text(child(first, 'Condition'));
      const height = child(item, 'MaxHeight', 'TsunamiHeight');
      const maxHeight = attr(height, 'description') || text(child(item, 'MaxHeight', 'Condition'));
      return {
        code: text(child(item, 'Area', 'Code')),
        name: text(child(item, 'Area', 'Name')),
        grade,
        ...(arrival ? { arrival: isoOrUndefined(arrival) ? withSeconds(arrival) : arrival } : {}),
        ...(maxHeight ? { maxHeight } : {}),
      };
    }),
  };
}

type WarningState = 'issued' | 'continued' | 'lifted';
/** Kind/Status: 発表 and the changes of level (警報から注意報 …) bring a warning into force; 継続 keeps it; 解除 ends it. */
const warningState = (status: string): WarningState | undefined => {
  if (!status || status === '発表警報・注意報はなし') return undefined;
  if (status === '解除') return 'lifted';
  if (status === '継続') return 'continued';
  return 'issued';
};
const warningLevel = (name: string) =>
  name.includes('特別警報') ? 'emergency' : name.includes('警報') ? 'warning' : ('advisory' as const);

function weatherOf(body: XmlNode | undefined): AlertReport['weather'] {
  const cities = children(body, 'Warning').find((w) => attr(w, 'type') === '気象警報・注意報（市町村等）');
  if (!cities) return undefined;
  return {
    areas: children(cities, 'Item').map((item) => ({
      code: text(child(item, 'Area', 'Code')),
      name: text(child(item, 'Area', 'Name')),
      warnings: children(item, 'Kind').flatMap((kind) => {
        const state = warningState(text(child(kind, 'Status')));
        const name = text(child(kind, 'Name'));
        if (!state || !name) return [];
        return [{ code: text(child(kind, 'Code')), name, level: warningLevel(name), state }];
      }),
    })),
  };
}

/** Seconds since the epoch: the order of reports that have no serial of their own. */
const epochSeconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/**
 * A JMA disaster-information XML report (気象庁防災情報XML) as an AlertReport. Earthquake (VXSE51/52/53), tsunami
 * (VTSE41/51) and weather warning (VPWW54) reports are read in full; any other JMA report is parsed as kind 'other'
 * (it never takes over a screen). Throws AlertParseError with a stable code.
 */
export function parseJmaReport(xml: string): AlertReport {
  const doc = parseXml(xml);
  const report = doc.Report;
  if (!report || typeof report === 'string') {
    throw new AlertParseError('ALERT_NOT_SUPPORTED', 'not a JMA report (no Report element)');
  }
  const control = child(report, 'Control');
  const head = child(report, 'Head');
  const body = child(report, 'Body');
  const controlTitle = text(child(control, 'Title'));
  const status = STATUS[text(child(control, 'Status'))];
  const infoType = INFO_TYPE[text(child(head, 'InfoType'))];
  const reportedAt = isoOrUndefined(text(child(head, 'ReportDateTime')));
  if (!controlTitle || !status || !infoType || !reportedAt) {
    throw new AlertParseError(
      'ALERT_REPORT_INVALID',
      'Control/Title, Control/Status, Head/InfoType or Head/ReportDateTime missing or unknown',
    );
  }
  const known = TYPES[controlTitle];
  const kind = known?.kind ?? 'other';
  // JMA leaves Serial empty in reports that are not numbered (震度速報, 津波警報, 気象警報): the time it sent them
  // (Control/DateTime, to the second) orders them, since successive 震度速報 of one minute share ReportDateTime
  const serialText = text(child(head, 'Serial'));
  const sent = isoOrUndefined(text(child(control, 'DateTime')));
  const serial = /^\d+$/.test(serialText) ? Number(serialText) : epochSeconds(sent ?? reportedAt);
  // Weather warnings have no EventID: each report is the state of one prefecture's forecast area, so that area names
  // the "event" a later report replaces.
  let eventId = text(child(head, 'EventID'));
  if (!eventId && kind === 'weather') {
    const pref = children(body, 'Warning').find((w) => attr(w, 'type') === '気象警報・注意報（府県予報区等）');
    eventId = `weather-${text(child(pref, 'Item', 'Area', 'Code')) || text(child(control, 'EditorialOffice'))}`;
  }
  if (!eventId) eventId = `${known?.type ?? controlTitle}-${text(child(control, 'EditorialOffice'))}`;
  const jmaType = known?.type;
  const validUntil = isoOrUndefined(text(child(head, 'ValidDateTime')));

  // A cancellation carries only a sentence in its Body: the report it cancels is named by EventID (and Serial).
  const cancelled = infoType === 'cancelled';
  const candidate: AlertReport = {
    source: 'jma',
    eventId,
    serial,
    // the type is part of the key: one earthquake's VXSE53 and VTSE51 share EventID and may share a serial
    reportId: `jma:${eventId}:${serial}:${infoType}:${jmaType ?? controlTitle}`,
    infoType,
    status,
    title: controlTitle,
    kind,
    reportedAt: withSeconds(reportedAt),
    ...(validUntil ? { validUntil: withSeconds(validUntil) } : {}),
    headline: text(child(head, 'Headline', 'Text')),
    ...(jmaType ? { jmaType } : {}),
  };
  if (!cancelled && kind === 'earthquake') candidate.earthquake = earthquakeOf(body) ?? { areas: [], cities: [] };
  if (!cancelled && kind === 'tsunami') {
    const tsunami = tsunamiOf(body);
    if (tsunami) candidate.tsunami = tsunami;
  }
  if (!cancelled && kind === 'weather') {
    const weather = weatherOf(body);
    if (weather) candidate.weather = weather;
  }
  const checked = alertReportSchema.safeParse(candidate);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new AlertParseError('ALERT_REPORT_INVALID', `${issue?.path.join('.')}: ${issue?.message}`);
  }
  return checked.data as AlertReport;
}
