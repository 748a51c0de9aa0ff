// What a new member trips on in the player's member pages, seen in a real browser in en, fr and ja at 390 × 844 and
// 1440 × 900: the Screens page (a screen closed by its hours, one under a takeover, one with nothing assigned; the
// play report on a phone), fleet control right after a takeover starts (the form, the running block, the log),
// fleet health, the player of a one-page file, and the displays (nothing assigned; a Japanese emergency message).
// Screenshots go to .data/screenshots (docs/screenshots with PAGECAST_SCREENSHOTS=docs, SHOT_SUFFIX=before|after).
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import {
  type Api,
  createPlaylist,
  openPlayerBrowser,
  type PlayerBrowser,
  pairDisplay,
  signedInMember,
  until,
  uploadPdf,
} from '../test/player-helpers';
import { type Language, screenReady, setLanguage } from '../test/screens';

const shots = path.resolve(
  import.meta.dirname,
  process.env.PAGECAST_SCREENSHOTS === 'docs' ? '../../../docs/screenshots' : '../../../.data/screenshots',
);
const suffix = process.env.SHOT_SUFFIX ?? 'after';
const shot = (page: Page, name: string, lang: Language, width?: number, fullPage = true) =>
  page.screenshot({
    path: path.join(shots, `${name}-${lang}-${suffix}${width === 390 ? '-390' : ''}.png`),
    fullPage,
  });
const desktop = { width: 1440, height: 900 };
const langs: Language[] = ['en', 'fr', 'ja'];

const TITLE = '地震発生';
const BODY = 'エレベーターは使わず、机の下に身を隠してください。揺れが収まったら係員の指示に従って避難してください。';

let api: Api;
let member: PlayerBrowser;
let phoneMember: PlayerBrowser;
const displays: Record<'lobby' | 'entrance' | 'office', PlayerBrowser> = {} as never;
const ids: Record<'lobby' | 'entrance' | 'office', string> = {} as never;
let fileA = '';
let poster = '';

function closedNowInTokyo() {
  const hour = Number(
    new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Tokyo', hour: '2-digit', hourCycle: 'h23' }).format(new Date()),
  );
  const far = String((hour + 12) % 24).padStart(2, '0');
  return [{ days: [0, 1, 2, 3, 4, 5, 6], start: `${far}:00`, end: `${far}:01` }];
}

async function inLanguage(page: Page, lang: Language) {
  await setLanguage(page, lang);
  await page.reload();
}

beforeAll(async () => {
  api = await signedInMember();
  fileA = (await uploadPdf(api, 'vertical.pdf', 'Lobby welcome', 5)).id;
  poster = (await uploadPdf(api, 'cmykjpeg.pdf', 'Poster', 5)).id;
  const list = await createPlaylist(api, '受付ロビー案内', [fileA]);
  for (const [key, name] of [
    ['lobby', '受付ロビー'],
    ['entrance', 'Entrance'],
    ['office', 'Back office'],
  ] as const) {
    displays[key] = await openPlayerBrowser(null, { serviceWorkers: 'block' });
    await displays[key].page.setViewportSize(desktop);
    ids[key] = await pairDisplay(api, displays[key].page, { name, timeZone: 'Asia/Tokyo' });
  }
  await api.json('PUT', `/api/screens/${ids.lobby}`, { assignment: { kind: 'playlist', playlistId: list } });
  await displays.lobby.page.locator(`.pc-display__page[data-file="${fileA}"]`).waitFor({ timeout: 20_000 });
  // the display's own proof of play (sent every 30 s, signed by its key) in the report: long names in its columns
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const report = `/api/screens/plays?from=${day(Date.now() - 86_400_000)}&to=${day(Date.now() + 86_400_000)}`;
  await until('plays in the report', async () => (await api.json<unknown[]>('GET', report)).length > 0, 60_000, 1000);
  await api.json('POST', '/api/screens/groups', { name: 'Entrance hall', screenIds: [ids.entrance] });
  member = await openPlayerBrowser(api, { locale: 'ja-JP' });
  await member.page.setViewportSize(desktop);
  phoneMember = await openPlayerBrowser(api, { locale: 'ja-JP', touch: true });
}, 300_000);

afterAll(async () => {
  for (const d of Object.values(displays)) await d?.close();
  await member?.close();
  await phoneMember?.close();
});

describe('player member pages, screenshots', () => {
  it('a display with nothing assigned', async () => {
    const d = displays.office.page;
    for (const lang of langs) {
      await inLanguage(d, lang);
      await d.getByTestId('display-idle').waitFor({ timeout: 20_000 });
      await d.waitForTimeout(500);
      await shot(d, 'display-idle', lang, undefined, false);
    }
  });

  it('a takeover started from the form, in each language', async () => {
    const m = member.page;
    await m.goto('/screens/fleet');
    for (const lang of langs) {
      await inLanguage(m, lang);
      await screenReady(m);
      await m.locator('#fleet-new-target').selectOption('groups');
      await m.locator('form').getByRole('checkbox', { name: 'Entrance hall' }).check();
      await m.locator('#fleet-title').fill(TITLE);
      await m.locator('#fleet-body').fill(BODY);
      await m.locator('#fleet-minutes').fill('30');
      await m.locator('form button[type="submit"]').first().click();
      await m.getByTestId('fleet-confirm').click();
      await m.getByTestId('fleet-running').waitFor();
      await m.getByRole('dialog').waitFor({ state: 'detached' });
      await m.waitForTimeout(800);
      await shot(m, 'fleet-takeover', lang, undefined, false);
      if (lang !== 'ja') {
        const [running] = await api.json<Array<{ id: string }>>('GET', '/api/screens/takeovers');
        await api.call('DELETE', `/api/screens/takeovers/${running?.id}`);
        await m.getByTestId('fleet-no-takeover').waitFor();
      }
    }
    // the page as a whole, the takeover running (log, groups, editors, agenda)
    await m.getByLabel(/^(Agenda of|Agenda de|対象)$/).selectOption({ label: 'Entrance hall' });
    for (const lang of langs) {
      await inLanguage(m, lang);
      await screenReady(m);
      await m.getByLabel(/^(Agenda of|Agenda de|対象)$/).selectOption({ label: 'Entrance hall' });
      await m.getByTestId('fleet-agenda').waitFor();
      await shot(m, 'fleet', lang);
    }
    const p = phoneMember.page;
    await p.goto('/screens/fleet');
    for (const lang of langs) {
      await inLanguage(p, lang);
      await screenReady(p);
      await p.getByTestId('fleet-log').waitFor();
      await p.getByTestId('fleet-log').scrollIntoViewIfNeeded();
      await p.waitForTimeout(300);
      await shot(p, 'fleet-log', lang, 390, false);
    }
  }, 240_000);

  it('the takeover on its display', async () => {
    const d = displays.entrance.page;
    await d.getByTestId('display-message').waitFor({ timeout: 20_000 });
    for (const lang of ['ja', 'en'] as Language[]) {
      await inLanguage(d, lang);
      await d.getByTestId('display-message').waitFor({ timeout: 20_000 });
      await d.waitForTimeout(500);
      await shot(d, 'display-message', lang, undefined, false);
    }
  });

  it('the Screens page: closed, under a takeover, nothing assigned; the play report on a phone', async () => {
    await api.json('PUT', `/api/screens/${ids.lobby}`, { openingHours: closedNowInTokyo() });
    await until('the lobby closed', async () => {
      const list = await api.json<{ items: Array<{ screenId: string; state: string }> }>('GET', '/api/screens/health');
      return list.items.find((s) => s.screenId === ids.lobby)?.state === 'closed';
    });
    const m = member.page;
    await m.goto('/screens');
    for (const lang of langs) {
      await inLanguage(m, lang);
      await screenReady(m);
      await m.getByTestId('play-report').waitFor();
      await m.waitForTimeout(500);
      await shot(m, 'screens-cards', lang, undefined, false);
    }
    const p = phoneMember.page;
    await p.goto('/screens');
    for (const lang of langs) {
      await inLanguage(p, lang);
      await screenReady(p);
      await p.getByTestId('play-report').waitFor();
      await p.getByTestId('play-report').scrollIntoViewIfNeeded();
      await p.waitForTimeout(300);
      await shot(p, 'screens-report', lang, 390, false);
    }
  }, 120_000);

  it('fleet health counts', async () => {
    const m = member.page;
    await m.goto('/screens/health');
    for (const lang of langs) {
      await inLanguage(m, lang);
      await screenReady(m);
      await m.getByTestId('health-list').waitFor();
      await m.waitForTimeout(300);
      await shot(m, 'fleet-health-counts', lang, undefined, false);
    }
  });

  it('the schedule and opening-hours editors, in a group on a phone and in a screen card on a desktop', async () => {
    const p = phoneMember.page;
    await p.goto('/screens/fleet');
    for (const lang of langs) {
      await inLanguage(p, lang);
      await screenReady(p);
      const group = p.getByTestId('fleet-groups').locator('li').first();
      await group.locator('details > summary').first().click();
      await group.locator('select[id$="-plays"]').selectOption('schedule');
      await group.getByTestId('opening-hours').getByRole('button').last().click();
      await group.scrollIntoViewIfNeeded();
      await p.waitForTimeout(300);
      await group.screenshot({ path: path.join(shots, `fleet-group-editor-${lang}-${suffix}-390.png`) });
    }
    const m = member.page;
    await m.goto('/screens');
    for (const lang of langs) {
      await inLanguage(m, lang);
      await screenReady(m);
      const card = m.getByTestId(`screen-${ids.lobby}`);
      await card.locator('details').last().locator('summary').click();
      await card.getByTestId('opening-hours').waitFor();
      await m.waitForTimeout(300);
      await card.screenshot({ path: path.join(shots, `screen-hours-editor-${lang}-${suffix}.png`) });
    }
  }, 120_000);

  it('the player of a one-page file, on a desktop and on a phone', async () => {
    const m = member.page;
    const p = phoneMember.page;
    for (const lang of langs) {
      for (const [page, width] of [
        [m, 1440],
        [p, 390],
      ] as const) {
        await page.goto('/');
        await setLanguage(page, lang);
        await page.goto(`/signage/${poster}`);
        await page.locator('img[data-front="true"]').waitFor({ timeout: 20_000 });
        await page.waitForTimeout(800);
        await shot(page, 'player', lang, width, false);
      }
    }
  });
});
