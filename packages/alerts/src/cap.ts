import { AlertParseError } from './errors.ts';
import { alertReportSchema } from './schema.ts';
import type { AlertInfoType, AlertReport, AlertStatus } from './types.ts';
import { child, children, parseXml, text, type XmlNode } from './xml.ts';

const STATUS: Record<string, AlertStatus> = {
  Actual: 'actual',
  Exercise: 'exercise',
  Test: 'test',
  System: 'test',
  Draft: 'test',
};
const MSG_TYPE: Record<string, AlertInfoType> = { Alert: 'issued', Update: 'corrected', Cancel: 'cancelled' };
const SEVERITIES = ['Extreme', 'Severe', 'Moderate', 'Minor', 'Unknown'] as const;

/** What takeover a CAP alert may cause, from its event words and category (CAP has no fixed list of events). */
function kindOf(info: XmlNode | undefined): AlertReport['kind'] {
  const event = text(child(info, 'event')).toLowerCase();
  const categories = children(info, 'category').map(text);
  if (/tsunami|津波/.test(event)) return 'tsunami';
  if (/earthquake|seismic|地震/.test(event)) return 'earthquake';
  if (categories.includes('Met') || /warning|rain|storm|flood|typhoon|snow|wind|警報|大雨|暴風|洪水|大雪/.test(event)) {
    return 'weather';
  }
  return 'other';
}

/** CAP's polygon: "lat,lon lat,lon …", closed (first = last), at least four pairs. */
function polygonOf(s: string): Array<[number, number]> {
  const points = s
    .trim()
    .split(/\s+/)
    .map((pair) => pair.split(',').map(Number) as [number, number]);
  if (points.length < 4 || points.some((p) => p.length !== 2 || !p.every(Number.isFinite))) {
    throw new AlertParseError('ALERT_REPORT_INVALID', 'a CAP polygon is not a closed ring of lat,lon pairs');
  }
  return points;
}

/** CAP times are ISO 8601 with an offset, to the second: sent becomes the serial, seconds since the epoch. */
const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/**
 * A CAP 1.2 alert (urn:oasis:names:tc:emergency:cap:1.2) as an AlertReport. The info in Japanese is read when there
 * is one (else the first); areas as polygons and geocodes. Ack and Error messages are not alerts:
 * ALERT_NOT_SUPPORTED.
 */
export function parseCapAlert(xml: string): AlertReport {
  const doc = parseXml(xml);
  const alert = doc.alert;
  if (!alert || typeof alert === 'string') throw new AlertParseError('ALERT_NOT_SUPPORTED', 'not a CAP alert');
  const identifier = text(child(alert, 'identifier'));
  const sent = text(child(alert, 'sent'));
  const status = STATUS[text(child(alert, 'status'))];
  const infoType = MSG_TYPE[text(child(alert, 'msgType'))];
  if (!infoType) throw new AlertParseError('ALERT_NOT_SUPPORTED', `CAP msgType ${text(child(alert, 'msgType'))}`);
  if (!identifier || !status || Number.isNaN(Date.parse(sent))) {
    throw new AlertParseError('ALERT_REPORT_INVALID', 'CAP identifier, sent or status missing or unknown');
  }
  // references: "sender,identifier,sent" triples; the first names the alert an Update or Cancel is about
  const firstRef = text(child(alert, 'references')).trim().split(/\s+/)[0]?.split(',')[1];
  const eventId = firstRef || identifier;
  const infos = children(alert, 'info');
  const info = infos.find((i) => text(child(i, 'language')).toLowerCase().startsWith('ja')) ?? infos[0];
  const polygons: Array<Array<[number, number]>> = [];
  const areaCodes: string[] = [];
  for (const area of children(info, 'area')) {
    for (const p of children(area, 'polygon')) polygons.push(polygonOf(text(p)));
    for (const g of children(area, 'geocode')) {
      const value = text(child(g, 'value'));
      if (value) areaCodes.push(value);
    }
  }
  const severity = text(child(info, 'severity'));
  const expires = text(child(info, 'expires'));
  const serial = seconds(sent);
  const candidate: AlertReport = {
    source: 'cap',
    eventId,
    serial,
    reportId: `cap:${eventId}:${serial}:${infoType}`,
    infoType,
    status,
    title: text(child(info, 'event')) || text(child(info, 'headline')) || identifier,
    kind: kindOf(info),
    reportedAt: sent,
    ...(expires ? { validUntil: expires } : {}),
    headline: text(child(info, 'headline')) || text(child(info, 'description')),
    ...(polygons.length ? { polygons } : {}),
    ...(areaCodes.length ? { areaCodes } : {}),
    ...((SEVERITIES as readonly string[]).includes(severity)
      ? { capSeverity: severity as (typeof SEVERITIES)[number] }
      : {}),
  };
  const checked = alertReportSchema.safeParse(candidate);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new AlertParseError('ALERT_REPORT_INVALID', `${issue?.path.join('.')}: ${issue?.message}`);
  }
  return checked.data as AlertReport;
}
