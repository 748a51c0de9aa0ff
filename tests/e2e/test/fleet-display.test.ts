// Fleet control on real displays: three paired displays in their own Chromium; one bulk assignment to
// their group switches all three; a message takeover on a group of two shows on both (the time is measured and
// printed, not asserted), survives a reload of a display cut from the network, and ends on time by itself (offline
// too), both displays back on their schedule while the third never left it.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Api,
  createPlaylist,
  openPlayerBrowser,
  type PlayerBrowser,
  pairDisplay,
  signedInMember,
  until as untilEvery,
  uploadPdf,
} from './player-helpers';

let api: Api;
const displays: PlayerBrowser[] = [];
const screenIds: string[] = [];
let fileA: string;
let listA: string;
/** polled every 50 ms: the figures this test prints are the time until every display shows a change */
const until = (what: string, check: () => Promise<boolean>, timeoutMs = 20_000) =>
  untilEvery(what, check, timeoutMs, 50);
const shownFile = (page: Page) =>
  page
    .locator('.pc-display__page')
    .getAttribute('data-file', { timeout: 200 })
    .catch(() => null);
/** the takeover's words on the display (its title, then its body; not the warning sign and time above them) */
const message = (page: Page) =>
  page
    .getByTestId('display-message')
    .evaluate(
      (box) => [...box.querySelectorAll('h1, .pc-display__message-body')].map((el) => el.textContent).join(''),
      undefined,
      { timeout: 200 },
    )
    .catch(() => null);

const TITLE = '地震発生';
const BODY = '係員の指示に従って、落ち着いて避難してください。';

beforeAll(async () => {
  api = await signedInMember();
  fileA = (await uploadPdf(api, 'vertical.pdf', 'Shop content', 1)).id;
  listA = await createPlaylist(api, 'Shop', [fileA]);
  for (let i = 0; i < 3; i++) {
    const display = await openPlayerBrowser(null);
    displays.push(display);
    screenIds.push(await pairDisplay(api, display.page, { name: `Display ${i + 1}`, timeZone: 'Asia/Tokyo' }));
    await display.page.getByTestId('display-idle').waitFor({ timeout: 15_000 });
  }
}, 300_000);

afterAll(async () => {
  for (const d of displays) await d.close();
});

describe('fleet on displays', () => {
  let group3 = '';

  it('a bulk assignment to a group of three displays switches all three', async () => {
    group3 = (await api.json<{ id: string }>('POST', '/api/screens/groups', { name: 'All three', screenIds })).id;
    for (const d of displays) expect(await shownFile(d.page)).toBeNull();
    const started = Date.now();
    await api.json('POST', '/api/screens/bulk', {
      selection: { by: 'group', groupId: group3 },
      change: { kind: 'assign', assignment: { kind: 'playlist', playlistId: listA } },
    });
    const times = await Promise.all(
      displays.map(async (d, i) => {
        await until(`display ${i + 1} plays the playlist`, async () => (await shownFile(d.page)) === fileA);
        return Date.now() - started;
      }),
    );
    console.log(`[fleet] bulk assignment to 3 displays: shown after ${times.join(' / ')} ms`);
  });

  it('a takeover on two of them shows at once, survives an offline reload and ends on time by itself', async () => {
    const [one, two, three] = displays as [PlayerBrowser, PlayerBrowser, PlayerBrowser];
    const pair = (
      await api.json<{ id: string }>('POST', '/api/screens/groups', {
        name: 'Entrance',
        screenIds: screenIds.slice(0, 2),
      })
    ).id;
    // the group's own assignment (none) is below the screens' group of three: they keep playing
    const started = Date.now();
    const takeover = await api.json<{ id: string; endsAt: string; screenIds: string[] }>(
      'POST',
      '/api/screens/takeovers',
      {
        target: { kind: 'groups', groupIds: [pair] },
        content: { kind: 'message', title: TITLE, body: BODY },
        minutes: 1,
      },
    );
    expect(new Set(takeover.screenIds)).toEqual(new Set(screenIds.slice(0, 2)));
    const endsAt = Date.parse(takeover.endsAt);
    const shownAfter = await Promise.all(
      [one, two].map(async (d, i) => {
        await until(`display ${i + 1} shows the takeover`, async () => (await message(d.page)) !== null);
        return Date.now() - started;
      }),
    );
    console.log(`[fleet] message takeover on 2 displays: shown after ${shownAfter.join(' / ')} ms`);
    for (const d of [one, two]) {
      const box = d.page.getByTestId('display-message');
      expect(await box.getByRole('heading', { level: 1 }).textContent()).toBe(TITLE);
      expect(await box.locator('.pc-display__message-body').textContent()).toBe(BODY);
      expect(await box.getByTestId('display-message-time').count()).toBe(1);
      expect(await d.page.getByTestId('display-playing').getAttribute('data-takeover')).toBe(takeover.id);
      expect(await d.page.locator('.pc-display__page').count()).toBe(0);
    }
    await two.page.screenshot({
      path: path.resolve(
        import.meta.dirname,
        process.env.PAGECAST_SCREENSHOTS === 'docs' ? '../../../docs/screenshots' : '../../../.data/screenshots',
        'fleet-display-message-after.png',
      ),
    });
    // the third display is not in the group: it never shows the takeover
    expect(await shownFile(three.page)).toBe(fileA);
    expect(await message(three.page)).toBeNull();

    // cut from the network and reloaded: the display shows it from the manifest it kept
    await one.context.setOffline(true);
    await one.page.reload();
    await until(
      'the takeover back after an offline reload',
      async () => (await message(one.page)) === `${TITLE}${BODY}`,
    );
    expect(await one.page.getByTestId('display-playing').getAttribute('data-takeover')).toBe(takeover.id);
    expect(Date.now()).toBeLessThan(endsAt); // still within the takeover: what was seen was it, not a leftover

    // it ends at its end on each display's own clock, the offline one included, back to the group's playlist
    const endedAfter = await Promise.all(
      [one, two].map(async (d, i) => {
        await until(`display ${i + 1} back on its schedule`, async () => (await shownFile(d.page)) === fileA, 90_000);
        return Date.now() - endsAt;
      }),
    );
    console.log(`[fleet] takeover ended on the displays ${endedAfter.join(' / ')} ms after its end (one offline)`);
    // not before its end (the displays and this test share the machine's clock)
    for (const late of endedAfter) expect(late).toBeGreaterThanOrEqual(-250);
    expect(await message(one.page)).toBeNull();
    expect(await message(two.page)).toBeNull();
    expect(await shownFile(three.page)).toBe(fileA);
    await one.context.setOffline(false);
  }, 150_000);
});
