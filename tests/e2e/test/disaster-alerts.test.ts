// Disaster alerts on real displays: three displays in three prefectures (Shizuoka, Tokyo, and Ishinomaki on the
// Miyagi coast); JMA's own sample XML (with event ids of their own) replayed onto the ALERTS stream: the first as the
// poller publishes (timed), the others with `npm run alerts -- replay`. A 震度6弱 report for Shizuoka takes over only that display within 2 s, its 取消 ends it, a 訓練 report
// shows nothing on screens without a drill rule, and a 大津波警報 takes over the coastal display. The fleet page's
// alert settings are there in Japanese with the defaults, and pass axe. A rule showing a file: the display shows the
// file's page with the report's facts in a band over it.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { jetstream } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  type Api,
  openPlayerBrowser,
  type PlayerBrowser,
  pairDisplay,
  signedInMember,
  until,
  uploadPdf,
} from './player-helpers';
import { seriousViolations } from './screens';

const run = promisify(execFile);
const samples = path.resolve(import.meta.dirname, '../../../packages/alerts/samples/jma');
let api: Api;
let nc: NatsConnection;
const displays: PlayerBrowser[] = [];
// 静岡市北部 (静岡県中部), 千代田区 (東京都２３区), 石巻市 on the 宮城県 coast
const places = [
  { name: '静岡店', place: { cityCode: '2210002', tsunamiRegion: null } },
  { name: '東京本店', place: { cityCode: '1310100', tsunamiRegion: null } },
  { name: '石巻港', place: { cityCode: '0420200', tsunamiRegion: '220' } },
];

/** One JMA sample as if issued now, under an event id of its own (and, for a drill, with 訓練 as its status). */
function report(file: string, eventId: string, over: { status?: string; serial?: number } = {}): string {
  const now = Date.now();
  const jst = new Date(now + 9 * 3600_000).toISOString().slice(0, 19);
  let xml = readFileSync(path.join(samples, file), 'utf8')
    .replace(/<DateTime>[^<]+<\/DateTime>/, `<DateTime>${new Date(now).toISOString().slice(0, 19)}Z</DateTime>`)
    .replace(/<ReportDateTime>[^<]+<\/ReportDateTime>/, `<ReportDateTime>${jst}+09:00</ReportDateTime>`)
    .replace(/<EventID>[^<]+<\/EventID>/, `<EventID>${eventId}</EventID>`);
  if (over.status) xml = xml.replace(/<Status>[^<]+<\/Status>/, `<Status>${over.status}</Status>`);
  if (over.serial !== undefined) xml = xml.replace(/<Serial>[^<]*<\/Serial>/, `<Serial>${over.serial}</Serial>`);
  return xml;
}

/**
 * Replays reports with the project's CLI (`npm run alerts -- replay`), onto the stack's NATS: the files are the
 * samples with an event id of their own (a rerun on the same stream is a new event, not a duplicate).
 */
async function replayWithCli(xmls: string[]): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pagecast-alerts-'));
  const files = xmls.map((xml, i) => {
    const file = path.join(dir, `report-${i}.xml`);
    writeFileSync(file, xml);
    return file;
  });
  const root = path.resolve(import.meta.dirname, '../../..');
  const nats = inject('stackEnv')?.NATS_URL ?? process.env.NATS_URL ?? '';
  const { stdout } = await run('npm', ['run', '--silent', 'alerts', '--', 'replay', '--profile', 'test', ...files], {
    cwd: root,
    env: { ...process.env, NATS_URL: nats },
  });
  return stdout;
}

/** Publishes a report as the poller does (its raw bytes on alerts.report.v1, id `jma:<sha256>`), timed to the ms. */
async function replay(xml: string): Promise<number> {
  const bytes = new TextEncoder().encode(xml);
  await jetstream(nc).publish('alerts.report.v1', bytes, {
    msgID: `jma:${createHash('sha256').update(bytes).digest('hex')}`,
  });
  return Date.now();
}

const alertOn = (page: Page) =>
  page
    .getByTestId('display-alert')
    .getAttribute('data-alert-kind', { timeout: 200 })
    .catch(() => null);
const eventId = () => `${Date.now()}${Math.floor(Math.random() * 1000)}`;

beforeAll(async () => {
  api = await signedInMember();
  nc = await connect({ servers: (inject('stackEnv')?.NATS_URL ?? process.env.NATS_URL ?? '').split(',') });
  for (const { name, place } of places) {
    const display = await openPlayerBrowser(null);
    displays.push(display);
    const id = await pairDisplay(api, display.page, { name, timeZone: 'Asia/Tokyo' });
    await api.json('PUT', `/api/screens/${id}`, { place });
    await display.page.getByTestId('display-idle').waitFor({ timeout: 15_000 });
  }
}, 300_000);

afterAll(async () => {
  for (const d of displays) await d.close();
  await nc?.close();
});

describe('disaster alerts on displays', () => {
  it('the fleet page holds the alert settings in Japanese, with the defaults, and axe finds nothing serious', async () => {
    const member = await openPlayerBrowser(api);
    try {
      await member.page.goto('/screens/fleet');
      const section = member.page.getByTestId('alert-rules');
      await section.getByRole('heading', { name: '災害アラート' }).waitFor({ timeout: 20_000 });
      expect(await member.page.getByTestId('alert-rule-tsunami-enabled').isChecked()).toBe(true);
      expect(await member.page.getByTestId('alert-rule-emergencyWarning-enabled').isChecked()).toBe(true);
      expect(await member.page.getByTestId('alert-rule-drills').isChecked()).toBe(false);
      expect(await member.page.getByLabel('表示する震度').inputValue()).toBe('5-');
      await section.locator('summary').first().click();
      expect(await seriousViolations(member.page)).toEqual([]);
    } finally {
      await member.close();
    }
  });

  it('a 震度6弱 report takes over only the Shizuoka display (time printed; goal 2 s); its 取消 ends it', async () => {
    const [shizuoka, tokyo, coast] = displays as [PlayerBrowser, PlayerBrowser, PlayerBrowser];
    const id = eventId();
    // 震度速報: 6弱 in 静岡県中部, 4 in 東京都２３区 (below the default 5弱)
    const sent = await replay(report('32-35_01_01_100806_VXSE51.xml', id, { serial: 1 }));
    await until(
      'the Shizuoka display shows the earthquake',
      async () => (await alertOn(shizuoka.page)) === 'earthquake',
      10_000,
    );
    const tookMs = Date.now() - sent;
    // the 2 s goal is printed, not asserted (a timed assertion fails on a busy machine, not on a bug); the wait's
    // 10 s bound above is the functional limit
    console.log(`[alerts] 震度6弱 report → on the display after ${tookMs} ms`);
    const box = shizuoka.page.getByTestId('display-alert');
    expect(await box.getByTestId('display-alert-facts-ja').textContent()).toContain('震度6弱');
    expect(await box.getByTestId('display-alert-facts-en').textContent()).toContain('Seismic intensity 6 lower');
    expect(await box.getByRole('heading', { level: 1 }).textContent()).toContain('地震が発生しました');
    expect(await box.getByTestId('display-alert-drill').count()).toBe(0);
    await shizuoka.page.screenshot({
      path: path.resolve(
        import.meta.dirname,
        process.env.PAGECAST_SCREENSHOTS === 'docs' ? '../../../docs/screenshots' : '../../../.data/screenshots',
        'disaster-alert-display.png',
      ),
    });
    expect(await alertOn(tokyo.page)).toBeNull();
    expect(await alertOn(coast.page)).toBeNull();

    const out = await replayWithCli([report('32-35_06_06_100915_VXSE53.xml', id, { serial: 9 })]);
    expect(out).toContain('cancelled');
    await until('the earthquake ends on 取消', async () => (await alertOn(shizuoka.page)) === null, 10_000);
    const log = await api.json<Array<{ action: string; source?: string; reportId?: string }>>(
      'GET',
      '/api/screens/takeovers/log',
    );
    expect(log.slice(0, 2).map((e) => [e.action, e.source])).toEqual([
      ['end', 'feed'],
      ['start', 'feed'],
    ]);
    expect(log[1]?.reportId).toContain(id);
  });

  it('a 訓練 report shows nothing on screens without a drill rule', async () => {
    // the drill, then a real report for the coast (in one replay, in that order): once that shows, the drill before it
    // was read and ignored
    const out = await replayWithCli([
      report('32-35_01_01_100806_VXSE51.xml', eventId(), { status: '訓練', serial: 1 }),
      report('32-39_11_02_250206_VTSE41.xml', eventId()),
    ]);
    expect(out).toContain('exercise');
    const coast = displays[2] as PlayerBrowser;
    await until(
      'the coastal display shows the tsunami warning',
      async () => (await alertOn(coast.page)) === 'tsunami',
      10_000,
    );
    for (const d of displays.slice(0, 2)) expect(await alertOn(d.page)).toBeNull();
    const box = coast.page.getByTestId('display-alert');
    expect(await box.getByTestId('display-alert-facts-ja').textContent()).toContain('大津波警報');
  });

  it('an earthquake rule showing a file: the Shizuoka display shows its page with the facts banded over it', async () => {
    const file = await uploadPdf(api, 'vertical.pdf', '避難経路', 10);
    const rules = await api.json<Record<string, Record<string, unknown>>>('GET', '/api/screens/alert-rules');
    await api.json('PUT', '/api/screens/alert-rules', {
      ...rules,
      earthquake: { ...rules.earthquake, fileId: file.id },
    });
    const shizuoka = displays[0] as PlayerBrowser;
    await replay(report('32-35_01_01_100806_VXSE51.xml', eventId(), { serial: 1 }));
    const box = shizuoka.page.getByTestId('display-alert');
    await until(
      'the Shizuoka display shows the file under the band',
      async () => (await box.getAttribute('data-file', { timeout: 200 }).catch(() => null)) === file.id,
      15_000,
    );
    await box.locator(`img[data-file="${file.id}"]`).waitFor({ timeout: 15_000 });
    const band = box.getByTestId('display-alert-band');
    expect(await band.getByTestId('display-alert-facts-ja').textContent()).toContain('震度6弱');
    // the band is drawn over the page, at the screen's foot, and large (readable from 5 m)
    const size = await band
      .getByTestId('display-alert-facts-ja')
      .evaluate((el) => Number.parseFloat(getComputedStyle(el).fontSize));
    expect(size).toBeGreaterThanOrEqual(24);
    await shizuoka.page.screenshot({
      path: path.resolve(
        import.meta.dirname,
        process.env.PAGECAST_SCREENSHOTS === 'docs' ? '../../../docs/screenshots' : '../../../.data/screenshots',
        'disaster-alert-file.png',
      ),
    });
  });
});
