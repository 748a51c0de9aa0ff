import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { concernsPlace, parseAtomFeed, parseCapAlert, parseReport } from '../src/index.ts';

const sample = (f: string) => readFileSync(join(import.meta.dirname, '../samples', f), 'utf8');

describe('CAP 1.2', () => {
  it('reads the Japanese info, its polygon and geocodes, and keys the report by identifier and sent time', () => {
    const r = parseCapAlert(sample('cap/earthquake-tokyo.xml'));
    expect(r).toMatchObject({
      source: 'cap',
      eventId: 'pagecast-demo-eq-20250101-0001',
      serial: 1735693200,
      reportId: 'cap:pagecast-demo-eq-20250101-0001:1735693200:issued',
      infoType: 'issued',
      status: 'actual',
      kind: 'earthquake',
      title: '地震',
      headline: '東京都心で強い揺れ',
      validUntil: '2025-01-01T11:00:00+09:00',
      areaCodes: ['1310100'],
      capSeverity: 'Severe',
    });
    expect(r.polygons?.[0]).toHaveLength(5);
    expect(parseReport(sample('cap/earthquake-tokyo.xml'))).toEqual(r);
  });

  it('a Cancel names the alert it cancels as its event', () => {
    const r = parseCapAlert(sample('cap/earthquake-tokyo-cancel.xml'));
    expect(r).toMatchObject({ infoType: 'cancelled', eventId: 'pagecast-demo-eq-20250101-0001' });
  });

  it('matches by point in polygon or by city code, else not', () => {
    const r = parseCapAlert(sample('cap/earthquake-tokyo.xml'));
    expect(concernsPlace(r, { cityCode: '9999999', tsunamiRegion: null, point: [35.68, 139.76] })).toEqual({
      intensity: '5-',
    });
    expect(concernsPlace(r, { cityCode: '1310100', tsunamiRegion: null })).toEqual({ intensity: '5-' });
    expect(concernsPlace(r, { cityCode: '2710000', tsunamiRegion: null, point: [34.69, 135.5] })).toBeNull();
  });

  it('refuses acknowledgements and alerts without identifier', () => {
    const ack = sample('cap/earthquake-tokyo.xml').replace('<msgType>Alert</msgType>', '<msgType>Ack</msgType>');
    expect(() => parseCapAlert(ack)).toThrow(expect.objectContaining({ code: 'ALERT_NOT_SUPPORTED' }));
    const noId = sample('cap/earthquake-tokyo.xml').replace(/<identifier>[^<]*<\/identifier>/, '');
    expect(() => parseCapAlert(noId)).toThrow(expect.objectContaining({ code: 'ALERT_REPORT_INVALID' }));
    const badPolygon = sample('cap/earthquake-tokyo.xml').replaceAll('35.65,139.70 35.65', '35.65;139.70 35.65');
    expect(() => parseCapAlert(badPolygon)).toThrow(expect.objectContaining({ code: 'ALERT_REPORT_INVALID' }));
  });
});

describe('Atom feeds', () => {
  // the shape of JMA's eqvol.xml / extra.xml
  const feed = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" lang="ja">
  <title>高頻度（地震火山）</title>
  <id>urn:uuid:2a1b1f4e-0000-0000-0000-000000000000</id>
  <updated>2025-01-01T01:00:00+09:00</updated>
  <link href="https://example.invalid/developer/xml/feed/eqvol.xml" rel="self"/>
  <entry>
    <title>震源・震度に関する情報</title>
    <id>urn:uuid:11111111-1111-1111-1111-111111111111</id>
    <updated>2025-01-01T00:59:30Z</updated>
    <author><name>気象庁</name></author>
    <link href="https://example.invalid/developer/xml/data/a.xml" type="application/xml"/>
    <content type="text/plain">２５日１６時１５分ころ、地震がありました。</content>
  </entry>
  <entry>
    <title>震度速報</title>
    <id>urn:uuid:22222222-2222-2222-2222-222222222222</id>
    <updated>2025-01-01T00:58:00Z</updated>
    <link href="https://example.invalid/developer/xml/data/b.xml" type="application/xml"/>
  </entry>
  <entry><title>no link</title><id>urn:uuid:3</id><updated>2025-01-01T00:57:00Z</updated></entry>
</feed>`;

  it('lists each entry with a link: id, url, updated, title', () => {
    expect(parseAtomFeed(feed)).toEqual([
      {
        id: 'urn:uuid:11111111-1111-1111-1111-111111111111',
        url: 'https://example.invalid/developer/xml/data/a.xml',
        updated: '2025-01-01T00:59:30Z',
        title: '震源・震度に関する情報',
      },
      {
        id: 'urn:uuid:22222222-2222-2222-2222-222222222222',
        url: 'https://example.invalid/developer/xml/data/b.xml',
        updated: '2025-01-01T00:58:00Z',
        title: '震度速報',
      },
    ]);
  });

  it('refuses what is not a feed', () => {
    expect(() => parseAtomFeed('<rss><channel/></rss>')).toThrow(
      expect.objectContaining({ code: 'ALERT_NOT_SUPPORTED' }),
    );
  });
});
