// The fleet pages in a real browser: from the Screens page an operator opens fleet control, creates a
// group, adds a screen to it, saves a takeover template and starts it in two clicks (the paired display shows the
// message), sees it running and in the log, and ends it with a confirmation (the display goes back). Screenshots of
// the page at 1440 px in en, fr and ja go to .data/screenshots (docs/screenshots with PAGECAST_SCREENSHOTS=docs).
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
  until,
  uploadPdf,
} from './player-helpers';
import { type Language, screenReady, setLanguage } from './screens';

// a test run leaves the tracked docs alone: PAGECAST_SCREENSHOTS=docs refreshes docs/screenshots on purpose
const shots = path.resolve(
  import.meta.dirname,
  process.env.PAGECAST_SCREENSHOTS === 'docs' ? '../../../docs/screenshots' : '../../../.data/screenshots',
);
let api: Api;
let display: PlayerBrowser;
let member: PlayerBrowser;
let screenId = '';
let fileA = '';

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

beforeAll(async () => {
  api = await signedInMember();
  fileA = (await uploadPdf(api, 'vertical.pdf', 'Lobby loop', 1)).id;
  const list = await createPlaylist(api, 'Lobby', [fileA]);
  display = await openPlayerBrowser(null);
  screenId = await pairDisplay(api, display.page, { name: 'Lobby display', timeZone: 'Asia/Tokyo' });
  await api.json('PUT', `/api/screens/${screenId}`, { assignment: { kind: 'playlist', playlistId: list } });
  await display.page.locator(`.pc-display__page[data-file="${fileA}"]`).waitFor({ timeout: 20_000 });
  member = await openPlayerBrowser(api, { locale: 'ja-JP' });
}, 240_000);

afterAll(async () => {
  await display?.close();
  await member?.close();
});

describe('fleet pages', () => {
  it('an operator creates a group, adds a screen and starts a takeover from a template in two clicks', async () => {
    const m = member.page;
    await m.setViewportSize({ width: 1440, height: 900 });
    await m.goto('/screens');
    await m.getByTestId('fleet-link').click();
    await m.waitForURL('**/screens/fleet');
    await screenReady(m);
    // the page's own heading, once its module has replaced the screens page's
    await m.getByRole('heading', { level: 1, name: 'フリート管理' }).waitFor();
    expect(await m.getByRole('heading', { level: 1 }).textContent()).toBe('フリート管理');

    // a group, then its screen
    await m.locator('#fleet-group-name').fill('Entrance');
    await m.getByRole('button', { name: 'グループを作成' }).click();
    const row = m.getByTestId('fleet-groups').locator('li').filter({ hasText: 'Entrance' });
    await row.waitFor();
    expect(await row.textContent()).toContain('0台');
    await row.getByText('「Entrance」を編集').click();
    await row.getByRole('checkbox', { name: 'Lobby display' }).check();
    await row.getByRole('button', { name: '保存' }).click();
    await until('the group has its screen', async () => ((await row.textContent()) ?? '').includes('1台'));
    const [group] = await api.json<Array<{ name: string; screenIds: string[] }>>('GET', '/api/screens/groups');
    expect(group).toMatchObject({ name: 'Entrance', screenIds: [screenId] });

    // a template prepared in advance
    await m.getByLabel('タイトル', { exact: true }).fill('本日休業');
    await m.getByLabel('本文', { exact: true }).fill('またのご来店をお待ちしております。');
    await m.getByLabel('分数').fill('5');
    await m.getByLabel('テンプレート名').fill('休業');
    await m.getByRole('button', { name: 'テンプレートとして保存' }).click();
    const templates = m.getByTestId('fleet-templates');
    await templates.waitFor();
    expect(await templates.textContent()).toContain('5分間');
    expect(await display.page.getByTestId('display-message').count()).toBe(0); // saving starts nothing

    // two clicks: the template's start, then the confirmation
    await m.getByRole('button', { name: '「休業」を開始' }).click();
    const dialog = m.getByRole('dialog');
    expect(await dialog.textContent()).toContain('「休業」が、あらゆるスケジュールより優先してすぐに表示されます。');
    const started = Date.now();
    await dialog.getByTestId('fleet-confirm').click();
    await until('the display shows the takeover', async () => (await message(display.page)) !== null);
    console.log(`[fleet] template takeover shown on the display ${Date.now() - started} ms after the confirmation`);
    expect(await message(display.page)).toBe('本日休業またのご来店をお待ちしております。');
    await m.getByTestId('fleet-running').waitFor();
    expect(await m.getByTestId('fleet-running').textContent()).toContain('本日休業');
    // where it goes, in words: the template was started on all screens (one here)
    expect(await m.getByTestId('fleet-running').textContent()).toContain('すべてのスクリーン（1台）');
    await m.getByTestId('fleet-log').waitFor();
    expect(await m.getByTestId('fleet-log').locator('tbody tr').first().textContent()).toContain('開始');

    // the week ahead of the group: the takeover now, then the screen's own playlist
    await m.getByLabel('対象').selectOption({ label: 'Entrance' });
    const agenda = m.getByTestId('fleet-agenda');
    await agenda.waitFor();
    const rows = await agenda.locator('tbody tr').allTextContents();
    expect(rows[0]).toContain('メッセージ「本日休業」');
    expect(rows[0]).toContain('緊急表示');
    expect(rows[1]).toContain('プレイリスト「Lobby」');
    expect(rows[1]).toContain('スクリーン個別の設定');

    for (const lang of ['en', 'fr', 'ja'] as Language[]) {
      await setLanguage(m, lang);
      await m.reload();
      await screenReady(m);
      await m.getByLabel(/^(Agenda of|Agenda de|対象)$/).selectOption({ label: 'Entrance' });
      await m.getByTestId('fleet-agenda').waitFor();
      await m.screenshot({ path: path.join(shots, `fleet-page-${lang}-after.png`), fullPage: true });
      await m.getByTestId('fleet-running').getByRole('button').click();
      await m.getByRole('dialog').waitFor();
      // the dialog fades in: its screenshot is taken once no animation runs
      await m.waitForFunction(() => document.getAnimations().every((x) => x.playState !== 'running'));
      await m.screenshot({ path: path.join(shots, `fleet-end-dialog-${lang}-after.png`) });
      if (lang !== 'ja') await m.keyboard.press('Escape');
    }

    // ended with a confirmation (the dialog opened last, in Japanese): the display goes back to its playlist
    expect(await m.getByRole('dialog').textContent()).toContain('1台のスクリーンが通常の予定に戻ります');
    await m.getByRole('dialog').getByTestId('fleet-confirm').click();
    await display.page.locator(`.pc-display__page[data-file="${fileA}"]`).waitFor({ timeout: 20_000 });
    await m.getByTestId('fleet-no-takeover').waitFor();
    await until('the end logged', async () =>
      ((await m.getByTestId('fleet-log').locator('tbody tr').first().textContent()) ?? '').includes('終了'),
    );
    expect(await m.getByTestId('fleet-log').locator('tbody tr').first().textContent()).toContain('あなた');
  }, 180_000);
});
